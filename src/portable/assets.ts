// The import asset pipeline (R-IMP-3). Each asset is fetched through
// the SSRF guard with caps on count, bytes and time, then decoded and re-encoded with sharp: only real
// raster images survive, and nothing of the original file (metadata, trailing bytes) is kept.
// Blobs are written before the committing transaction and never removed when it fails: identical bytes
// may belong to another import committing at the same moment. Unreferenced blobs are swept later
// (src/domain/library/blobs.ts, sweepBlobs).
import type { BlobStore } from '../domain/library/blobs.js';
import { Refusal } from '../kernel/errors.js';
import { FetchFailure, guardedFetch } from '../net/fetch.js';
import type { Guard } from '../net/ssrf.js';
import { ASSET_CAPS, PORTABLE_CAPS, type PortableAsset } from './schema.js';

export type ImageBytes = { bytes: Buffer; mime: string; width: number; height: number };
export type FetchedAssets = {
  images: Map<string, ImageBytes>;
  skipped: string[];
  /** Why each skipped asset was skipped, in words an owner can act on (migration reports them). */
  reasons: Map<string, string>;
};

const OUTPUT: Record<string, { mime: string; to: 'jpeg' | 'png' | 'webp' }> = {
  jpeg: { mime: 'image/jpeg', to: 'jpeg' },
  png: { mime: 'image/png', to: 'png' },
  webp: { mime: 'image/webp', to: 'webp' },
  gif: { mime: 'image/png', to: 'png' },
};

/** Decodes and re-encodes; throws for anything that is not a JPEG, PNG, WebP or GIF image. */
export async function reencodeImage(input: Buffer): Promise<ImageBytes> {
  // sharp (libvips) loads on the first image, not in every serving process (docs/performance.md).
  const { default: sharp } = await import('sharp');
  const img = sharp(input, { limitInputPixels: ASSET_CAPS.pixels, failOn: 'error' });
  const meta = await img.metadata();
  const out = meta.format ? OUTPUT[meta.format] : undefined;
  if (!out) throw new Error('not a supported image');
  const { data, info } = await img.rotate().toFormat(out.to).toBuffer({ resolveWithObject: true });
  return { bytes: data, mime: out.mime, width: info.width, height: info.height };
}

class AssetFailed extends Refusal {
  constructor(
    key: string,
    readonly why: string,
  ) {
    super(
      'invalid_input',
      `Asset "${key}" could not be imported: ${why}`,
      'Nothing was imported. Fix or remove that asset (and the sections that use it) and try again.',
    );
  }
}
const assetFailed = (key: string, why: string) => new AssetFailed(key, why);

/**
 * Fetches and re-validates every asset. strict (import_site): the first failure refuses the import.
 * lenient (migration): failures are skipped and reported. Runs outside any DB transaction.
 */
export async function fetchAssets(
  guard: Guard,
  list: readonly PortableAsset[],
  opts: { strict: boolean; maxCount?: number; concurrency?: number; timeMs?: number },
): Promise<FetchedAssets> {
  const images = new Map<string, ImageBytes>();
  const skipped: string[] = [];
  const reasons = new Map<string, string>();
  const deadline = Date.now() + (opts.timeMs ?? ASSET_CAPS.timeMs);
  const maxCount = opts.maxCount ?? PORTABLE_CAPS.assets;
  let total = 0;
  const queue = list.slice();
  const one = async (a: PortableAsset) => {
    if (images.size + skipped.length >= maxCount) throw assetFailed(a.key, 'too many assets.');
    const left = deadline - Date.now();
    if (left <= 0) throw assetFailed(a.key, 'the asset time budget ran out.');
    let fetched: Buffer;
    try {
      const r = await guardedFetch(guard, a.url, {
        maxBytes: ASSET_CAPS.bytesEach,
        timeoutMs: Math.min(left, ASSET_CAPS.fetchTimeoutMs),
        accept: 'image/*',
      });
      fetched = r.body;
    } catch (err) {
      if (err instanceof FetchFailure) throw assetFailed(a.key, err.message);
      throw err;
    }
    total += fetched.length;
    if (total > ASSET_CAPS.bytesTotal) {
      throw new Refusal(
        'payload_too_large',
        'The assets together are too large to import.',
        'Import fewer or smaller images.',
      );
    }
    try {
      images.set(a.key, await reencodeImage(fetched));
    } catch {
      throw assetFailed(a.key, 'it is not a JPEG, PNG, WebP or GIF image.');
    }
  };
  const worker = async () => {
    for (let a = queue.shift(); a; a = queue.shift()) {
      if (!opts.strict && images.size + skipped.length >= maxCount) {
        skipped.push(a.key);
        reasons.set(a.key, `more than ${maxCount} images: only the first ${maxCount} are imported.`);
        continue;
      }
      try {
        await one(a);
      } catch (err) {
        if (opts.strict) {
          queue.length = 0;
          throw err;
        }
        skipped.push(a.key);
        reasons.set(a.key, err instanceof AssetFailed ? err.why : (err as Error).message);
      }
    }
  };
  const results = await Promise.allSettled(
    Array.from({ length: Math.min(opts.concurrency ?? 4, Math.max(1, list.length)) }, worker),
  );
  const failed = results.find((r) => r.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  return { images, skipped, reasons };
}

/** Writes each image's bytes (before the transaction that references them); returns key -> hash. */
export async function writeBlobs(
  blobs: BlobStore,
  images: Map<string, ImageBytes>,
): Promise<Map<string, string>> {
  const shaByKey = new Map<string, string>();
  for (const [key, img] of images) shaByKey.set(key, await blobs.put(img.bytes));
  return shaByKey;
}
