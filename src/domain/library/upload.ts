// The owner's upload of an image into the website's library (the console's editor): the same check as
// a generated image (image-check.ts), the bytes into the blob store before the row that names them,
// then the asset row and the owner's Activity line in the caller's transaction. Nothing is charged.
import { newId } from '../../kernel/ids.js';
import { invalidInput } from '../../kernel/errors.js';
import { recordOwnerAction } from '../activity/owner.js';
import type { SiteCtx } from '../context.js';
import { insertAssets } from './assets.js';
import { MAX_IMAGE_BYTES, decodeImage } from './image-check.js';

export async function uploadImage(ctx: SiteCtx, bytes: Uint8Array) {
  if (bytes.byteLength === 0) throw invalidInput('Choose an image file to add; the file sent was empty.');
  if (bytes.byteLength > MAX_IMAGE_BYTES) {
    throw invalidInput(`The image is larger than ${MAX_IMAGE_BYTES / 1024 / 1024} MB, so it was not added.`);
  }
  const image = await decodeImage(bytes);
  if (!image) {
    throw invalidInput(
      'That file is not a PNG, JPEG or WebP image, so it was not added.',
      'Save the picture as PNG, JPEG or WebP and add it again.',
    );
  }
  const sha256 = await ctx.services.blobs.put(bytes);
  const assetId = newId('asset');
  await insertAssets(ctx.tx, ctx.website.id, [
    {
      id: assetId,
      kind: 'image',
      ...image,
      bytes: bytes.byteLength,
      sha256,
      source: 'upload',
      createdAt: ctx.now,
    },
  ]);
  await recordOwnerAction(
    ctx,
    'upload_image',
    `The owner added an image (${image.mime}, ${image.width}×${image.height}) to the library.`,
  );
  return { assetId, ...image };
}
