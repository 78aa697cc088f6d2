/** One answer of GET /p/{alias_id}: its status, the headers that depend on the page, and its body. */
export interface PublicPageRepresentation {
  status: 200 | 304;
  contentType: string;
  etag: string;
  robots: string[];
  body: Buffer;
}

/** The headers every answer of /p carries, page or error. */
export const PUBLIC_PAGE_HEADERS = {
  'Referrer-Policy': 'no-referrer',
  Vary: 'Accept',
};

/** A shared page may sit in caches for a minute: how long unsharing takes to reach every reader. */
export const PUBLIC_PAGE_CACHE_CONTROL = 'public, max-age=60';

export type PublicPageForm = 'html' | 'json';
