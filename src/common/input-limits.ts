/**
 * The bounds of every request field that the spec leaves open, in one place: the DTOs enforce them,
 * the OpenAPI document and the README publish them. Lengths count Unicode code points.
 */
export const INPUT_LIMITS = {
  /** Page and template titles, section titles: a heading, not a paragraph. */
  titleMax: 255,
  /** Short labels of an Image (id, blurhash, colour, emoji id). */
  labelMax: 255,
  /** A URL, as browsers, CDNs and proxies reliably carry one. */
  urlMax: 2048,
  /** An Image's src: a URL, an icon name, an emoji, or a base64 data URL of an icon up to about 24 KB. */
  imageSrcMax: 32768,
  /** One section's guidance: a few paragraphs; 100 of them still fit the 1 MiB body. */
  sectionDescriptionMax: 10240,
  /** A page's index among its siblings, as a 32-bit integer every client holds; past the end already means last. */
  positionMax: 2147483647,
  /** A cover's vertical offset, in pixels or percent as the client keeps it; no image is taller. */
  positionYMin: -10000,
  positionYMax: 10000,
  /** Tag ids sent in one request before duplicates collapse; at most 100 may be distinct. */
  tagIdsRawMax: 1000,
  /** No list in any body is longer (the longest any field allows); refused before its items are read. */
  listItemsMax: 1000,
} as const;
