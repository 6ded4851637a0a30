/** Server-rendered pages of the cloud (sign-in, password reset): plain HTML forms that work without JavaScript. */

const escapeHtml = (value: string): string =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] as string);

export const html = (strings: TemplateStringsArray, ...values: Array<string | number | RawHtml>): RawHtml =>
  new RawHtml(
    strings.reduce(
      (out, part, i) =>
        out +
        part +
        (i < values.length ? (values[i] instanceof RawHtml ? String(values[i]) : escapeHtml(String(values[i]))) : ''),
      '',
    ),
  );

export class RawHtml {
  constructor(private readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const STYLE = `
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; display: grid; place-items: center; min-height: 100vh; background: Canvas; color: CanvasText; }
  main { width: min(26rem, 92vw); padding: 2rem; border: 1px solid GrayText; border-radius: 12px; }
  h1 { font-size: 1.5rem; margin: 0 0 .25rem; }
  p.lead { margin: 0 0 1.5rem; }
  label { display: block; font-weight: 600; margin: 1rem 0 .25rem; }
  input[type=email], input[type=password] { width: 100%; box-sizing: border-box; padding: .6rem; font-size: 1rem;
    border: 1px solid GrayText; border-radius: 6px; }
  input:focus-visible, button:focus-visible, a:focus-visible { outline: 3px solid Highlight; outline-offset: 2px; }
  button { margin-top: 1.5rem; width: 100%; padding: .7rem; font-size: 1rem; font-weight: 600; border-radius: 6px;
    border: 0; background: #b3401a; color: #fff; cursor: pointer; }
  .error { border-left: 4px solid #b00020; padding: .5rem .75rem; margin: 0 0 1rem; background: color-mix(in srgb, #b00020 12%, Canvas); }
  .note { margin-top: 1rem; font-size: .9rem; }
`;

/** A complete, accessible page around `body`. */
export function page(title: string, body: RawHtml): string {
  return String(html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title} · Hearth</title>
<style>${new RawHtml(STYLE)}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>`);
}

export function errorBox(message: string | null): RawHtml {
  return message ? html`<p class="error" role="alert" id="form-error">${message}</p>` : html``;
}

export const hiddenFields = (fields: Record<string, string | undefined>): RawHtml =>
  new RawHtml(
    Object.entries(fields)
      .filter(([, v]) => v !== undefined && v !== '')
      .map(([k, v]) => String(html`<input type="hidden" name="${k}" value="${v as string}">`))
      .join('\n'),
  );
