import { escapeHtml } from '../../src/public-pages/html-escape';
import { pageDocument } from '../../src/public-pages/public-page-document';
import { sanitisePageContent } from '../../src/public-pages/public-page-sanitiser';
import { documentParts, hazards } from './html-hazards';
import { OWASP_XSS_VECTORS } from './owasp-xss-vectors';

const HEAD_OF_A_PAGE = ['meta', 'meta', 'meta', 'title', 'style'];

/** The whole public page with `vector` in the given place. */
function pageWith(vector: string, place: 'content' | 'title' | 'icon' | 'cover' | 'emoji'): string {
  return pageDocument({
    title: place === 'title' ? vector : 'A page',
    font: 'sans',
    icon:
      place === 'icon'
        ? { type: 'image', src: vector }
        : place === 'emoji'
          ? { type: 'emoji', src: vector, emoji: vector }
          : null,
    coverImage: place === 'cover' ? { type: 'image', src: vector } : null,
    robots: [],
    sanitisedContent: sanitisePageContent(place === 'content' ? vector : '<p>Text</p>'),
  });
}

describe('The OWASP XSS filter evasion vectors against the public page', () => {
  it('has at least 50 of them', () => {
    expect(new Set(OWASP_XSS_VECTORS).size).toBeGreaterThanOrEqual(50);
  });

  it('are hazards the check sees, as written: it is not a check that finds nothing', () => {
    const seen = OWASP_XSS_VECTORS.filter((vector) => hazards(`<!DOCTYPE html><body>${vector}`, 'document').length);
    expect(seen.length).toBeGreaterThanOrEqual(OWASP_XSS_VECTORS.length - 10);
  });

  it.each(OWASP_XSS_VECTORS.map((vector) => [vector]))(
    '%s: the sanitiser leaves no script, handler or script URL',
    (vector) => {
      expect(hazards(sanitisePageContent(vector))).toEqual([]);
    },
  );

  it.each(OWASP_XSS_VECTORS.map((vector) => [vector]))('%s: nowhere in the page document either', (vector) => {
    for (const place of ['content', 'title', 'icon', 'cover', 'emoji'] as const) {
      const html = pageWith(vector, place);
      expect([place, documentParts(html).head.map((n) => n.tagName)]).toEqual([place, HEAD_OF_A_PAGE]);
      expect([place, hazards(html, 'document')]).toEqual([place, []]);
      if (place === 'title') expect(html).toContain(`<h1>${escapeHtml(vector)}</h1>`);
    }
  });

  it('keeps what a page is made of: text, structure, links and images', () => {
    const html =
      '<h2>Plan</h2><p>See <a href="https://example.com/a?b=1&amp;c=2">the plan</a> or ' +
      '<a href="mailto:team@example.com">mail us</a>.</p><ul><li>one</li></ul><pre><code>x &lt; y</code></pre>' +
      '<img src="https://example.com/i.png" alt="chart"><img src="data:image/gif;base64,R0lGOD==" alt="dot">' +
      '<table><tr><td colspan="2">cell</td></tr></table>';
    expect(sanitisePageContent(html)).toBe(
      '<h2>Plan</h2><p>See <a href="https://example.com/a?b=1&amp;c=2" rel="nofollow noopener noreferrer ugc">' +
        'the plan</a> or <a href="mailto:team@example.com" rel="nofollow noopener noreferrer ugc">mail us</a>.</p>' +
        '<ul><li>one</li></ul>' +
        '<pre><code>x &lt; y</code></pre><img src="https://example.com/i.png" alt="chart" />' +
        '<img src="data:image/gif;base64,R0lGOD==" alt="dot" /><table><tr><td colspan="2">cell</td></tr></table>',
    );
  });
});
