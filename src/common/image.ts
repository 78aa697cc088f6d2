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
