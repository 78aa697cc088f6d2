import request from 'supertest';
import { seedPages } from '../pages/page-fixtures';
import { useScene } from '../support/scene';
import { sharePage } from './public-page-fixtures';

const HOSTILE = '<p>Hello <b>world</b></p><script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">';

describe('GET /p/{alias_id}: a shared page', () => {
  const s = useScene();
  const browser = (path: string) => request(s.t.app.getHttpServer()).get(path).set('Accept', 'text/html,*/*;q=0.8');

  it('is a complete HTML document: title, heading, emoji icon, font, sanitised content, and its headers', async () => {
    const page = await sharePage(
      s,
      {
        title: 'Release <notes> & "plans"',
        font: 'serif',
        icon: { type: 'emoji', src: '📘', emoji: '📘' },
        content: HOSTILE,
      },
      ['noindex', 'nofollow'],
    );
    expect(page.path).toBe(`/p/${page.aliasId}`);
    const res = await browser(page.path).expect(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.text).toMatch(/^<!DOCTYPE html>\n<html>/);
    expect(res.text).toContain('<title>Release &lt;notes&gt; &amp; &quot;plans&quot;</title>');
    expect(res.text).toContain('<h1>Release &lt;notes&gt; &amp; &quot;plans&quot;</h1>');
    expect(res.text).toContain('<div class="icon" aria-hidden="true">📘</div>');
    expect(res.text).toContain('<body class="font-serif">');
    expect(res.text).toContain('.font-serif{font-family:Georgia, Cambria, "Times New Roman", Times, serif}');
    expect(res.text).toContain('<article class="content"><p>Hello <b>world</b></p><img src="x" /></article>');
    expect(res.text).not.toMatch(/<script|onerror|pwned/i);
    expect(res.text).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(res.headers).toMatchObject({
      'x-robots-tag': 'noindex, nofollow',
      'cache-control': 'public, max-age=60',
      'referrer-policy': 'no-referrer',
      vary: 'Accept',
    });
    expect(res.headers.etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const csp = res.headers['content-security-policy'];
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval/);
  });

  it('shows image icons and covers from http(s) and data:image URLs, and drops any other address', async () => {
    const shown = await sharePage(s, {
      icon: { type: 'image', src: 'https://cdn.example.com/i.png?a=1&b=2' },
      cover_image: { type: 'image', src: 'data:image/png;base64,iVBORw0KGgo=' },
    });
    const html = (await browser(shown.path).expect(200)).text;
    expect(html).toContain('<img class="icon" src="https://cdn.example.com/i.png?a=1&amp;b=2" alt="">');
    expect(html).toContain('<img class="cover" src="data:image/png;base64,iVBORw0KGgo=" alt="">');
    const dropped = await sharePage(s, {
      icon: { type: 'image', src: 'javascript:alert(1)' },
      cover_image: { type: 'image', src: 'data:text/html,<script>alert(1)</script>' },
    });
    const bare = (await browser(dropped.path).expect(200)).text;
    expect(bare).not.toMatch(/class="(icon|cover)"|javascript|text\/html,/);
  });

  it('without robots directives says nothing about robots (indexable by default)', async () => {
    const page = await sharePage(s, { title: 'Open' });
    const res = await browser(page.path).expect(200);
    expect(res.headers['x-robots-tag']).toBeUndefined();
    expect(res.text).not.toContain('name="robots"');
  });

  it('answers Accept: application/json with the page and its sanitised content', async () => {
    const page = await sharePage(s, { title: 'Embed me', font: 'mono', content: HOSTILE });
    const res = await s.t.http.get(page.path).set('Accept', 'application/json').expect(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers.vary).toBe('Accept');
    expect(res.body).toEqual({
      page: {
        id: page.id,
        alias_id: page.aliasId,
        title: 'Embed me',
        font: 'mono',
        icon: null,
        cover_image: null,
        content: '<p>Hello <b>world</b></p><img src="x" />',
        time_updated: expect.any(Number),
      },
    });
    const html = await browser(page.path).expect(200);
    expect(res.headers.etag).not.toBe(html.headers.etag);
  });

  it('answers 304 to If-None-Match naming its ETag, and 200 with a new ETag once the page changes', async () => {
    const page = await sharePage(s, { title: 'Cached' });
    const first = await browser(page.path).expect(200);
    const etag = first.headers.etag;
    // The same version again: the statement leaves the content out, and the rendered body is served.
    const second = await browser(page.path).expect(200);
    expect([second.headers.etag, second.text]).toEqual([etag, first.text]);
    const again = await browser(page.path).set('If-None-Match', `W/"other", ${etag}`).expect(304);
    expect(again.text).toBe('');
    expect(again.headers).toMatchObject({ etag, 'cache-control': 'public, max-age=60', vary: 'Accept' });
    await s.t.http
      .patch(`/v1/${s.ws.teamId}/pages/${page.id}`)
      .set('Authorization', s.ws.auth.member)
      .send({ title: 'Cached, then changed' })
      .expect(200);
    const changed = await browser(page.path).set('If-None-Match', etag).expect(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.text).toContain('<h1>Cached, then changed</h1>');
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const page = await sharePage(s, { title: 'Heads up' }, ['noarchive']);
    const get = await browser(page.path).expect(200);
    const head = await request(s.t.app.getHttpServer()).head(page.path).expect(200);
    expect(head.text).toBeUndefined();
    for (const header of ['content-type', 'etag', 'cache-control', 'content-security-policy', 'x-robots-tag', 'vary'])
      expect(head.headers[header]).toBe(get.headers[header]);
  });

  it.each(['post', 'put', 'patch', 'delete'] as const)(
    'answers %s with 405, the error body and Allow',
    async (method) => {
      const page = await sharePage(s, {});
      for (const path of [page.path, '/p/not-an-alias']) {
        const res = await request(s.t.app.getHttpServer())[method](path).set('Accept', 'text/html').send({ a: 1 });
        expect(res.status).toBe(405);
        expect(res.headers.allow).toBe('GET, HEAD');
        expect(res.body.error).toMatchObject({ code: 405, sec: 'SEC:006-00002' });
      }
    },
  );

  it('serves a page the import shared, and ignores a query string', async () => {
    const [imported] = await seedPages(s.t.app, s.ws, [{ title: 'Shared on import', is_public: true }]);
    const res = await s.t.http
      .get(`/v1/${s.ws.teamId}/pages/${imported}`)
      .set('Authorization', s.ws.auth.member)
      .expect(200);
    const path = new URL(res.body.page.public_settings.url).pathname;
    expect((await browser(`${path}?utm_source=mail`).expect(200)).text).toContain('<h1>Shared on import</h1>');
  });
});
