/** Control characters and spaces, which browsers strip from a URL before reading its scheme. */
// eslint-disable-next-line no-control-regex -- the control characters are what it matches
const IGNORED_BY_BROWSERS = /[\u0000-\u0020\u007f-\u009f]+/g;

const IMAGE_DATA_URL = /^data:image\/[a-z0-9.+-]+[;,]/i;

/**
 * `value` as an image address a public page may load: an absolute http(s) URL or a data URL of an image;
 * anything else (javascript:, data:text/html, a relative or unparsable address) is null.
 */
export function imageUrl(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const compact = value.replace(IGNORED_BY_BROWSERS, '');
  if (IMAGE_DATA_URL.test(compact)) return compact;
  try {
    const url = new URL(value.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Whether an <img src> the sanitiser let through is a data URL of something other than an image. */
export function isNonImageDataUrl(value: string): boolean {
  const compact = value.replace(IGNORED_BY_BROWSERS, '');
  return /^data:/i.test(compact) && !IMAGE_DATA_URL.test(compact);
}
