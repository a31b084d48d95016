// The one check that bytes are an image the library keeps: PNG, JPEG or WebP that decodes as such, at
// most MAX_IMAGE_BYTES. Used for a provider's generated image and for the owner's upload alike; the
// declared type is never trusted, the bytes must decode.

export const MAX_IMAGE_BYTES = 10 * 1024 * 1024;
export const IMAGE_MIMES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/webp']);

export type DecodedImage = { mime: string; width: number; height: number };

/** What the bytes really are, or null when they are empty, too large or not one of IMAGE_MIMES. */
export async function decodeImage(bytes: Uint8Array): Promise<DecodedImage | null> {
  if (bytes.byteLength === 0 || bytes.byteLength > MAX_IMAGE_BYTES) return null;
  // sharp (libvips) loads on the first image, not in every serving process (docs/performance.md).
  const { default: sharp } = await import('sharp');
  const meta = await sharp(bytes)
    .metadata()
    .catch(() => null);
  const mime = meta?.format === 'jpeg' ? 'image/jpeg' : meta?.format ? `image/${meta.format}` : '';
  if (!meta?.width || !meta.height || !IMAGE_MIMES.has(mime)) return null;
  return { mime, width: meta.width, height: meta.height };
}
