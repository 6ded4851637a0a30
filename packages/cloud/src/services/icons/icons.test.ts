import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cloud } from '../../server';
import { call, describeOnDatabases, internalToken, readJson, signIn, startTestCloud, TEST_PUBLIC_URL } from '../../testing';

const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="24" height="24"><circle cx="12" cy="12" r="10" fill="#f80"/></svg>';

/** A loopback server standing in for the web: each path answers as its test needs. */
async function startWeb(): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    switch (request.url) {
      case '/icon.svg':
        response.writeHead(200, { 'content-type': 'image/svg+xml' }).end(SVG.replace('#f80', '#08f'));
        return;
      case '/huge.svg':
        response.writeHead(200, { 'content-type': 'image/svg+xml' });
        response.end(`<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(40_000)}</svg>`);
        return;
      case '/slow.svg':
        // Drips a byte a second: only a limit on the whole fetch stops it.
        response.writeHead(200, { 'content-type': 'image/svg+xml' });
        response.write('<svg');
        {
          const timer = setInterval(() => response.write(' '), 1000);
          response.on('close', () => clearInterval(timer));
        }
        return;
      case '/moved.svg':
        response.writeHead(302, { location: '/icon.svg' }).end();
        return;
      case '/evil.svg':
        response
          .writeHead(200, { 'content-type': 'image/svg+xml' })
          .end(SVG.replace('<circle', '<script>alert(1)</script><circle'));
        return;
      default:
        response.writeHead(404).end('no');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

describeOnDatabases('Icons', (backend) => {
  let cloud: Cloud;
  let guarded: Cloud;
  let token: string;
  let web: { server: Server; url: string };
  beforeAll(async () => {
    web = await startWeb();
    cloud = await startTestCloud(backend, { iconsAllowPrivateUrls: true });
    guarded = await startTestCloud(backend);
    token = (await signIn(cloud)).access_token;
  });
  afterAll(async () => {
    await cloud.stop();
    await guarded.stop();
    web.server.closeAllConnections();
    await new Promise((resolve) => web.server.close(resolve));
  });

  const create = (svg: unknown, query = '', bearer: string | null = token, on = cloud) =>
    call(on, 'POST', `/icons/icon${query}`, bearer, svg === undefined ? {} : { svg });
  const refusal = async (response: Response) => {
    expect(response.status).toBe(400);
    const body = await readJson(response);
    expect(body.error).toBe('invalid_parameter');
    return body.error_description as string;
  };

  it('stores an SVG icon and serves it at the size asked for (default 32), the same icon keeping its id', async () => {
    const created = await create(SVG);
    expect(created.status).toBe(201);
    const icon = await readJson(created);
    expect(icon._id).toMatch(/^[0-9a-f]{24}$/);
    expect(icon.id).toBe(icon._id);
    expect(icon.url).toBe(`${TEST_PUBLIC_URL}/icons/icon/${icon._id}`);
    expect((await readJson(await create(SVG)))._id).toBe(icon._id);

    const standard = await fetch(`${cloud.url}/icons/icon/${icon._id}`); // no token: icons are public
    expect(standard.status).toBe(200);
    expect(standard.headers.get('content-type')).toBe('image/svg+xml; charset=utf-8');
    expect(standard.headers.get('cache-control')).toContain('immutable');
    expect(standard.headers.get('content-security-policy')).toContain("default-src 'none'");
    const text = await standard.text();
    expect(text).toMatch(/^<svg width="32" height="32" xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(text).toContain('viewBox="0 0 24 24"'); // derived from the upload's own size so it scales
    expect(text).toContain('<circle cx="12" cy="12" r="10" fill="#f80"/>');
    expect(text.match(/width=/g)).toHaveLength(1);

    const large = await (await fetch(`${cloud.url}/icons/icon/${icon._id}?size=256`)).text();
    expect(large).toMatch(/^<svg width="256" height="256" /);
  });

  it('refuses sizes out of bounds and answers 404 for unknown icons', async () => {
    const icon = await readJson(await create(SVG));
    for (const size of ['7', '1025', 'big', '12.5']) {
      const response = await fetch(`${cloud.url}/icons/icon/${icon._id}?size=${size}`);
      expect(response.status, size).toBe(400);
      expect((await readJson(response)).error_description).toContain('size');
    }
    for (const id of ['000000000000000000000000', 'not-an-id']) {
      const missing = await fetch(`${cloud.url}/icons/icon/${id}`);
      expect(missing.status).toBe(404);
      expect(await readJson(missing)).toMatchObject({ error: 'not_found', statusCode: 404 });
    }
  });

  it('refuses what is not a safe SVG: scripts, handlers, outside references, DOCTYPEs, other documents', async () => {
    const cases: [string, string][] = [
      ['<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', '<script>'],
      ['<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>', 'onload'],
      ['<svg xmlns="http://www.w3.org/2000/svg"><rect ONCLICK="x()"/></svg>', 'ONCLICK'],
      ['<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><div/></foreignObject></svg>', 'foreignObject'],
      [
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:h="http://www.w3.org/1999/xhtml"><h:script>x()</h:script></svg>',
        'h:script',
      ],
      [
        '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"><a xlink:href="javascript:alert(1)"><rect/></a></svg>',
        'script address',
      ],
      ['<svg xmlns="http://www.w3.org/2000/svg"><a href=" java&#x09;script:x()"><rect/></a></svg>', 'script address'],
      ['<svg xmlns="http://www.w3.org/2000/svg"><use href="https://evil.test/sprite.svg#a"/></svg>', 'outside the icon'],
      ['<svg xmlns="http://www.w3.org/2000/svg"><rect fill="url(https://evil.test/p)"/></svg>', 'outside the icon'],
      ['<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(https://evil.test/a.css);</style></svg>', 'imports'],
      [
        '<svg xmlns="http://www.w3.org/2000/svg"><style>@im<![CDATA[port url(https://evil.test/a.css);]]></style></svg>',
        'imports',
      ],
      ['<svg xmlns="http://www.w3.org/2000/svg"><style>.a{fill:\\75 rl(https://evil.test/p)}</style></svg>', 'CSS escapes'],
      [
        '<svg xmlns="http://www.w3.org/2000/svg"><rect style="fill:image-set(\'https://evil.test/p\' 1x)"/></svg>',
        'CSS functions',
      ],
      ['<svg xmlns="http://www.w3.org/2000/svg"><set attributeName="href" to="x"/></svg>', 'may not animate'],
      ['<!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>', 'DOCTYPE'],
      ['<svg xmlns="http://www.w3.org/2000/svg"><rect></svg>', 'well-formed'],
      ['<svg><rect/></svg>', 'SVG namespace'],
      ['<html xmlns="http://www.w3.org/1999/xhtml"><body/></html>', 'root element'],
      ['just some text', 'well-formed'],
      [`<svg xmlns="http://www.w3.org/2000/svg"><desc>${'x'.repeat(100 * 1024)}</desc></svg>`, 'more than 102400 characters'],
      [`<svg xmlns="http://www.w3.org/2000/svg"><desc>${'é'.repeat(60_000)}</desc></svg>`, 'larger than 100 KB'],
    ];
    for (const [svg, expected] of cases) {
      const response = await create(svg);
      expect(response.status, svg.slice(0, 60)).toBe(400);
      expect((await readJson(response)).error_description, svg.slice(0, 60)).toContain(expected);
    }
  });

  it('keeps what an icon may carry and drops editor metadata, comments and instructions', async () => {
    const svg = `<?xml version="1.0"?><!-- made by hand --><?editor x?>
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape" viewBox="0 0 10 10" inkscape:version="1.0">
  <inkscape:grid/><defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient><path id="p" d="M0 0h10"/></defs>
  <style>.a { fill: url(#g) }</style><use xlink:href="#p" class="a"/><![CDATA[ 1 < 2 ]]><text>&lt;&amp;</text>
</svg>`;
    const icon = await readJson(await create(svg));
    const text = await (await fetch(`${cloud.url}/icons/icon/${icon._id}?size=16`)).text();
    expect(text).toContain('xmlns:xlink="http://www.w3.org/1999/xlink"');
    expect(text).toContain('<use xlink:href="#p" class="a"/>');
    expect(text).toContain('viewBox="0 0 10 10"');
    expect(text).toContain(' 1 &lt; 2 ');
    expect(text).toContain('<text>&lt;&amp;</text>');
    for (const gone of ['inkscape', '<!--', '<?', 'editor']) expect(text).not.toContain(gone);
  });

  it('fetches an icon from an http(s) address, within the size and time limits and without redirects', async () => {
    const fetched = await create(undefined, `?url=${encodeURIComponent(`${web.url}/icon.svg`)}`);
    expect(fetched.status).toBe(201);
    const icon = await readJson(fetched);
    expect(await (await fetch(`${cloud.url}/icons/icon/${icon._id}`)).text()).toContain('fill="#08f"');

    expect(await refusal(await create(undefined, `?url=${encodeURIComponent(`${web.url}/huge.svg`)}`))).toContain('larger than');
    expect(await refusal(await create(undefined, `?url=${encodeURIComponent(`${web.url}/moved.svg`)}`))).toContain('redirects');
    expect(await refusal(await create(undefined, `?url=${encodeURIComponent(`${web.url}/missing.svg`)}`))).toContain('404');
    expect(await refusal(await create(undefined, `?url=${encodeURIComponent(`${web.url}/evil.svg`)}`))).toContain('<script>');
    const began = Date.now();
    expect(await refusal(await create(undefined, `?url=${encodeURIComponent(`${web.url}/slow.svg`)}`))).toContain(
      'no answer within',
    );
    expect(Date.now() - began).toBeLessThan(15_000);
    const ftp = await create(undefined, '?url=ftp%3A%2F%2Fexample.test%2Fa.svg');
    expect(ftp.status).toBe(400);
    expect((await readJson(ftp)).error_description).toContain('url');
  });

  it('never fetches from internal addresses unless allowed', async () => {
    const token = (await signIn(guarded)).access_token;
    for (const address of [
      `${web.url}/icon.svg`,
      'http://localhost:9/icon.svg',
      'http://[::1]:9/a.svg',
      'http://10.0.0.1/a.svg',
    ]) {
      const response = await create(undefined, `?url=${encodeURIComponent(address)}`, token, guarded);
      expect(await refusal(response), address).toContain('Internal addresses are not allowed');
    }
  });

  it('needs a token to store, and either svg or url but not both', async () => {
    expect((await create(SVG, '', null)).status).toBe(401);
    const neither = await create(undefined);
    expect(neither.status).toBe(400);
    expect((await readJson(neither)).error_description).toBe('Missing Parameter: svg');
    expect(await refusal(await create(SVG, `?url=${encodeURIComponent(`${web.url}/icon.svg`)}`))).toContain('not both');
    // A client acting on its own behalf may store icons too.
    expect((await create(SVG.replace('#f80', '#123'), '', await internalToken(cloud))).status).toBe(201);
  });
});

describe('Icons: the stored form is canonical', () => {
  it('serializes attributes it keeps with their special characters escaped', async () => {
    const { checkSvg } = await import('./svg');
    const out = checkSvg('<svg xmlns="http://www.w3.org/2000/svg"><text x="1" y="&quot;2&lt;">a&gt;b</text></svg>');
    expect(out).toBe('<svg xmlns="http://www.w3.org/2000/svg"><text x="1" y="&quot;2&lt;">a&gt;b</text></svg>');
  });
});
