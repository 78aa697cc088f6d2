import sanitizeHtml from 'sanitize-html';
import { isNonImageDataUrl } from './safe-url';

/**
 * The editor's HTML as a public page may show it, by sanitize-html's allowlist: text, structure, links
 * and images only. No script, style, form, iframe, object or event handler; links only to http(s) and
 * mailto; images only from http(s) and data:image/*; no style or class attribute, so nothing in the
 * content loads anything or borrows the page's own look.
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    ...sanitizeHtml.defaults.allowedTags.filter((tag) => tag !== 'data'),
    'img',
    'del',
    'ins',
    'details',
    'summary',
  ],
  allowedAttributes: {
    a: ['href', 'title', 'rel'],
    img: ['src', 'alt', 'title', 'width', 'height'],
    ol: ['start', 'reversed'],
    li: ['value'],
    td: ['colspan', 'rowspan'],
    th: ['colspan', 'rowspan', 'scope'],
    time: ['datetime'],
    abbr: ['title'],
    details: ['open'],
  },
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https', 'data'] },
  allowedSchemesAppliedToAttributes: ['href', 'src', 'cite'],
  allowProtocolRelative: false,
  disallowedTagsMode: 'discard',
  transformTags: {
    // Links leave the page without telling where they came from, and lend it no ranking.
    a: (tagName, attribs) => ({ tagName, attribs: { ...attribs, rel: 'nofollow noopener noreferrer ugc' } }),
    img: (tagName, attribs) => {
      const { src, ...rest } = attribs;
      return { tagName, attribs: src === undefined || isNonImageDataUrl(src) ? rest : attribs };
    },
  },
};

export function sanitisePageContent(html: string): string {
  return sanitizeHtml(html, OPTIONS);
}
