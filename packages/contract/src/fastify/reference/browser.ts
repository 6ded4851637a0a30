/**
 * What the reference page runs in the browser, kept as source text: Swagger UI's configuration is written into
 * its initializer script (functions by their source), and the page script is served as a file. Plain ES2017 with
 * no imports, because it runs as it is written here.
 */

/**
 * A Swagger UI plugin: the filter box searches operations (path, method, summary, operation id, description
 * and group), not only group names as Swagger UI's own filter does, and opens every group that has a match so
 * the matches are seen at once.
 */
export const searchPlugin = `function HearthSearch(system) {
  function matches(tagName, op, words) {
    var operation = op.get('operation');
    var text = [tagName, op.get('path'), op.get('method'), operation.get('summary'), operation.get('operationId'),
      operation.get('description')].join(' ').toLowerCase();
    return words.every(function (word) { return text.indexOf(word) !== -1; });
  }
  function filter(taggedOps, phrase) {
    var words = String(phrase || '').toLowerCase().split(/\\s+/).filter(Boolean);
    if (words.length === 0) return taggedOps;
    return taggedOps
      .map(function (tag, tagName) {
        return tag.set('operations', tag.get('operations').filter(function (op) { return matches(tagName, op, words); }));
      })
      .filter(function (tag) { return tag.get('operations').size > 0; });
  }
  return {
    fn: { opsFilter: filter },
    statePlugins: {
      layout: {
        wrapActions: {
          updateFilter: function (original) {
            return function (phrase) {
              var result = original(phrase);
              if (String(phrase || '').trim()) {
                filter(system.specSelectors.taggedOperations(), phrase).keySeq().forEach(function (tagName) {
                  system.layoutActions.show(['operations-tag', tagName], true);
                });
              }
              return result;
            };
          },
        },
      },
    },
  };
}`;

/**
 * The page script (loaded before Swagger UI starts): the Hearth banner with the brand and what the reference
 * is, the reference inside the page's main landmark, and the filter box named as the search it is.
 */
export function pageScript(banner: { title: string; logo: string; hint: string }): string {
  return `(function () {
  var banner = ${JSON.stringify(banner)};
  // Swagger UI's page has no viewport line: phones laid it out 980 px wide and shrank it.
  var viewport = document.createElement('meta');
  viewport.name = 'viewport';
  viewport.content = 'width=device-width, initial-scale=1';
  document.head.appendChild(viewport);
  var header = document.createElement('header');
  header.className = 'hearth-bar';
  var brand = document.createElement('span');
  brand.className = 'hearth-bar__brand';
  var logo = document.createElement('img');
  logo.src = banner.logo;
  logo.alt = '';
  logo.width = 32;
  logo.height = 32;
  brand.appendChild(logo);
  brand.appendChild(document.createTextNode('Hearth'));
  var title = document.createElement('span');
  title.className = 'hearth-bar__title';
  title.textContent = banner.title;
  header.appendChild(brand);
  header.appendChild(title);
  var main = document.createElement('main');
  main.className = 'hearth-main';
  var ui = document.getElementById('swagger-ui');
  document.body.insertBefore(header, ui);
  document.body.insertBefore(main, ui);
  if (banner.hint) {
    var hint = document.createElement('p');
    hint.className = 'hearth-hint';
    hint.textContent = banner.hint;
    main.appendChild(hint);
  }
  main.appendChild(ui);
  function nameSearch() {
    var input = document.querySelector('.operation-filter-input');
    if (!input || input.getAttribute('data-hearth')) return;
    input.setAttribute('data-hearth', 'search');
    input.setAttribute('type', 'search');
    input.setAttribute('placeholder', 'Search operations');
    input.setAttribute('aria-label', 'Search operations');
  }
  new MutationObserver(nameSearch).observe(ui, { childList: true, subtree: true });
})();`;
}

/** Hearth's look over Swagger UI's, and what keeps it within a phone's width. */
export const pageStyle = `
body { margin: 0; background: #fafaf9; }
.hearth-bar { display: flex; align-items: center; gap: 12px; flex-wrap: wrap; padding: 12px 20px;
  background: #fff; border-bottom: 1px solid #e7e5e4; font: 600 18px/1.3 system-ui, sans-serif; color: #1c1917; }
.hearth-bar__brand { display: inline-flex; align-items: center; gap: 10px; }
.hearth-bar__title { font-weight: 400; color: #57534e; }
.hearth-main { max-width: 1460px; margin: 0 auto; }
.hearth-hint { margin: 16px 12px 0; padding: 12px 16px; border-radius: 8px; background: #fff7ed; color: #7c2d12;
  font: 14px/1.5 system-ui, sans-serif; }
.swagger-ui .wrapper { padding: 0 20px; box-sizing: border-box; }
.swagger-ui .info { margin: 24px 0; }
.swagger-ui .info .title { color: #1c1917; overflow-wrap: anywhere; }
.swagger-ui .filter-container { margin: 0; padding: 0 20px; }
.swagger-ui .filter-container .filter, .swagger-ui .filter-container .filter > * { padding: 0; width: 100%; max-width: none; flex: 1 1 100%; }
.swagger-ui .response-col_links { display: none; }
.swagger-ui .filter .operation-filter-input { width: 100%; box-sizing: border-box; min-height: 44px; margin: 12px 0; border: 2px solid #d6d3d1; font-size: 16px; }
.swagger-ui .btn.authorize { border-color: #9a3412; color: #9a3412; min-height: 44px; }
.swagger-ui .btn.authorize svg { fill: #9a3412; }
.swagger-ui .opblock-tag { min-height: 44px; }
.swagger-ui .opblock-tag small { overflow-wrap: anywhere; }
.swagger-ui .opblock .opblock-summary { min-height: 44px; }
.swagger-ui .opblock .opblock-summary-path { overflow-wrap: anywhere; word-break: break-word; max-width: 100%; }
.swagger-ui .opblock .opblock-summary-description { overflow-wrap: anywhere; }
.swagger-ui .markdown code, .swagger-ui .renderedMarkdown code { overflow-wrap: anywhere; white-space: normal; }
.swagger-ui .scheme-container { padding: 16px 0; box-shadow: none; background: transparent; }
.swagger-ui .scheme-container .schemes { flex-wrap: wrap; gap: 12px; }
.swagger-ui .dialog-ux .modal-ux { max-width: calc(100vw - 24px); max-height: calc(100vh - 24px); overflow: auto; }
.swagger-ui table { table-layout: fixed; width: 100%; }
.swagger-ui .parameters-col_name { width: 30%; overflow-wrap: anywhere; }
/* A fixed table layout ignores Swagger UI's min-width on the status column: without a width "Code" ran into "Description". */
.swagger-ui .responses-table .response-col_status { width: 5em; }
.swagger-ui .responses-inner, .swagger-ui .opblock-body pre, .swagger-ui .highlight-code { max-width: 100%; overflow-x: auto; }
.swagger-ui .model-box, .swagger-ui .model-example { max-width: 100%; overflow-x: auto; }
/* Swagger UI's own colours put white text on light greens, blues and oranges: darker ones read (WCAG AA). */
.swagger-ui .opblock .opblock-summary-method { min-width: 72px; }
.swagger-ui .opblock.opblock-get .opblock-summary-method { background: #1d5f9e; }
.swagger-ui .opblock.opblock-post .opblock-summary-method { background: #11703f; }
.swagger-ui .opblock.opblock-put .opblock-summary-method { background: #9a4a00; }
.swagger-ui .opblock.opblock-delete .opblock-summary-method { background: #b91c1c; }
.swagger-ui .opblock.opblock-patch .opblock-summary-method { background: #0f6b5c; }
.swagger-ui .info .title small, .swagger-ui .info .title small pre { background: #4b5563; }
.swagger-ui .info .title small.version-stamp { background: #3f6212; }
.swagger-ui .info .link .url, .swagger-ui .info a { color: #1e40af; }
/* The reference's client is public (PKCE): it has no secret to type, and asks no scopes. */
.swagger-ui .auth-container .scope-def { display: none; }
.swagger-ui .auth-container .wrapper:has(#client_secret_authorizationCode) { display: none; }
@media (max-width: 600px) {
  .swagger-ui .opblock .opblock-summary { flex-wrap: wrap; }
  .swagger-ui .wrapper, .swagger-ui .filter-container { padding: 0 12px; }
  .swagger-ui .opblock .opblock-summary-method { min-width: 60px; }
  .swagger-ui .opblock-tag { font-size: 18px; }
  .swagger-ui .info .title { font-size: 28px; }
}
`;

/** Hearth's mark (the support form's and account pages' favicon): a roof over a flame. */
export const logoSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><title>Hearth</title><rect width="32" height="32" rx="8" fill="#9a3412"/><path d="M7 15.5 16 8l9 7.5" fill="none" stroke="#fff" stroke-width="2.4" stroke-linecap="round" stroke-linejoin="round"/><path d="M16 13.5c2.6 2.2 4 4.3 4 6.4a4 4 0 0 1-8 0c0-1.3.6-2.4 1.6-3.3.2 1.1.8 1.8 1.6 2 0-1.9.2-3.4.8-5.1Z" fill="#fdba74"/></svg>';
