export const IMAGE_TYPES = ['image', 'icon', 'emoji'] as const;

/** The contract's Image, stored as JSON exactly as accepted. */
export interface Image {
  type: (typeof IMAGE_TYPES)[number];
  src: string;
  id?: string;
  blurhash?: string;
  color?: string;
  emoji?: string;
}

/** A plain object with only the Image fields that were given, in a fixed order. */
export function normaliseImage(image: Image): Image {
  const { type, src, id, blurhash, color, emoji } = image;
  return Object.fromEntries(
    Object.entries({ type, src, id, blurhash, color, emoji }).filter(([, v]) => v !== undefined),
  ) as unknown as Image;
}
