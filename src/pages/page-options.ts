/** What a page's font and robots directives may be: the API's DTOs and the import's check these lists. */
export const PAGE_FONTS = ['sans', 'serif', 'mono'] as const;
export type PageFont = (typeof PAGE_FONTS)[number];

export const ROBOTS_DIRECTIVES = [
  'all',
  'none',
  'index',
  'noindex',
  'follow',
  'nofollow',
  'noarchive',
  'nosnippet',
  'noimageindex',
  'notranslate',
] as const;
export type RobotsDirective = (typeof ROBOTS_DIRECTIVES)[number];
