import { createHash } from 'node:crypto';
import { Image } from '../common/image';
import { escapeHtml } from './html-escape';
import { imageUrl } from './safe-url';

/** The page's font as a CSS font stack; the class names are fixed, so no stored value reaches the CSS. */
const FONT_STACKS: Record<string, string> = {
  sans: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif',
  serif: 'Georgia, Cambria, "Times New Roman", Times, serif',
  mono: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
};

const STYLESHEET = [
  'body{margin:0;color:#1f2328;background:#fff;line-height:1.6}',
  ...Object.entries(FONT_STACKS).map(([font, stack]) => `.font-${font}{font-family:${stack}}`),
  'main{max-width:46rem;margin:0 auto;padding:2rem 1.25rem}',
  '.cover{display:block;width:100%;max-height:18rem;object-fit:cover}',
  '.icon{font-size:3rem;line-height:1}img.icon{width:4rem;height:4rem;object-fit:contain}',
  'h1{font-size:2.25rem;margin:.5rem 0 1.5rem}',
  '.content img{max-width:100%;height:auto}',
  '.content pre{overflow:auto;padding:.75rem;background:#f6f8fa}',
  '.content table{border-collapse:collapse}.content td,.content th{border:1px solid #d0d7de;padding:.25rem .5rem}',
].join('');

/**
 * No script at all, no plugin, no form, no base; images from http(s) and data URLs only; the one
 * stylesheet above by its hash; nothing else (fonts, frames, connections) is loaded.
 */
export const PUBLIC_PAGE_CSP = [
  "default-src 'none'",
  "script-src 'none'",
  `style-src 'sha256-${createHash('sha256').update(STYLESHEET).digest('base64')}'`,
  'img-src http: https: data:',
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'self'",
].join('; ');

/** What the HTML document shows; content is HTML the sanitiser has already passed. */
export interface DocumentParts {
  title: string;
  font: string;
  icon: Image | null;
  coverImage: Image | null;
  robots: string[];
  sanitisedContent: string;
}

/** A complete HTML document of a shared page: every value escaped for where it stands. */
export function pageDocument(parts: DocumentParts): string {
  const cover = imageUrl(parts.coverImage?.src);
  const title = escapeHtml(parts.title || 'Untitled');
  return shell({
    title,
    font: parts.font,
    robots: parts.robots,
    body:
      (cover ? `<img class="cover" src="${escapeHtml(cover)}" alt="">\n` : '') +
      `<main>\n<header>${iconHtml(parts.icon)}<h1>${title}</h1></header>\n` +
      `<article class="content">${parts.sanitisedContent}</article>\n</main>`,
  });
}

/** The document of an error (a 404, a 429): the same for every cause, apart from the occurrence. */
export function errorDocument(title: string, message: string, errorId: string, date: number): string {
  return shell({
    title: escapeHtml(title),
    font: 'sans',
    robots: ['noindex'],
    body:
      `<main>\n<h1>${escapeHtml(title)}</h1>\n<p>${escapeHtml(message)}</p>\n` +
      `<p><small>Error ${escapeHtml(errorId)} at ${new Date(date).toISOString()}</small></p>\n</main>`,
  });
}

function shell(parts: { title: string; font: string; robots: string[]; body: string }): string {
  const font = parts.font in FONT_STACKS ? parts.font : 'sans';
  const robots = parts.robots.length ? `<meta name="robots" content="${escapeHtml(parts.robots.join(', '))}">\n` : '';
  return (
    '<!DOCTYPE html>\n<html>\n<head>\n<meta charset="utf-8">\n' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
    `<meta name="referrer" content="no-referrer">\n${robots}<title>${parts.title}</title>\n` +
    `<style>${STYLESHEET}</style>\n</head>\n<body class="font-${font}">\n${parts.body}\n</body>\n</html>\n`
  );
}

/** An emoji icon as text; an image icon when its address is one a public page may load; else nothing. */
function iconHtml(icon: Image | null): string {
  if (!icon) return '';
  if (icon.type === 'emoji') {
    const emoji = [...(icon.emoji ?? icon.src ?? '')].slice(0, 16).join('');
    return emoji ? `<div class="icon" aria-hidden="true">${escapeHtml(emoji)}</div>` : '';
  }
  const src = imageUrl(icon.src);
  return src ? `<img class="icon" src="${escapeHtml(src)}" alt="">` : '';
}
