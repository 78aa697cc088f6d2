/** The values a page's listed fields may take; the API's bodies and responses and the import check the same lists. */
export const PAGE_FONTS = ['sans', 'serif', 'mono'] as const;
export type PageFont = (typeof PAGE_FONTS)[number];

export const ROBOTS_DIRECTIVES = ['all', 'none', 'index', 'noindex', 'follow', 'nofollow', 'noarchive', 'nosnippet', 'noimageindex', 'notranslate'] as const;
export type RobotsDirective = (typeof ROBOTS_DIRECTIVES)[number];
