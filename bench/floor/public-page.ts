import sanitizeHtml from 'sanitize-html';

/**
 * The least a correct shared page needs: its content through sanitize-html's default allowlist once
 * per version (a Map, never evicted: the bench has a few thousand pages), the title escaped, a bare
 * document with a CSP that allows no script. No icon, cover, robots meta, ETag or 304.
 */
const sanitised = new Map<string, string>();

const escape = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

export interface PublicPageRow {
  team_id: string;
  id: string;
  version: string;
  title: string;
  content: string;
}

export function floorPublicPage(row: PublicPageRow): string {
  const key = `${row.team_id}/${row.id}/${row.version}`;
  let content = sanitised.get(key);
  if (content === undefined) sanitised.set(key, (content = sanitizeHtml(row.content)));
  const title = escape(row.title);
  return (
    `<!DOCTYPE html><html><head><meta charset="utf-8"><title>${title}</title></head>` +
    `<body><h1>${title}</h1>${content}</body></html>`
  );
}

export const FLOOR_PUBLIC_PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy': "default-src 'none'; img-src http: https: data:",
  'cache-control': 'public, max-age=60',
};
