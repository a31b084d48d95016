// Image providers (R-IMG-1). The
// default renders locally from the brand; IMAGE_PROVIDER_URL switches to an HTTP image API:
// POST JSON { prompt, aspect, width, height, brand: { palette, fonts, style }, companyMemory }
// answered by 200 with the image bytes (image/png, image/jpeg or image/webp, at most 10 MB).
// Any other answer, a network error or no answer within IMAGE_PROVIDER_TIMEOUT_MS is an outage
// (ProviderUnavailable); the caller refunds the reserved credits.
import { IMAGE_MIMES, MAX_IMAGE_BYTES, decodeImage } from './image-check.js';
import { type Aspect, type BrandInput, SIZES, composeSvg, renderPng } from './brand-image.js';

export type ImageRequest = { prompt: string; aspect: Aspect; brand: BrandInput };
export type Image = { bytes: Uint8Array; mime: string; width: number; height: number };
export type ImageProvider = { name: string; generate(req: ImageRequest): Promise<Image> };

class ProviderUnavailable extends Error {
  constructor(reason: string) {
    super(`image provider unavailable: ${reason}`);
    this.name = 'ProviderUnavailable';
  }
}

const MAX_BYTES = MAX_IMAGE_BYTES;
const MIMES = IMAGE_MIMES;

function localImageProvider(): ImageProvider {
  return {
    name: 'local',
    async generate(req) {
      const { width, height } = SIZES[req.aspect];
      return {
        bytes: renderPng(composeSvg(req.prompt, req.aspect, req.brand)),
        mime: 'image/png',
        width,
        height,
      };
    },
  };
}

function httpImageProvider(url: string, timeoutMs: number): ImageProvider {
  return {
    name: 'http',
    async generate(req) {
      const { width, height } = SIZES[req.aspect];
      let res: Response;
      let body: Uint8Array;
      try {
        res = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'image/png, image/jpeg, image/webp' },
          body: JSON.stringify({
            prompt: req.prompt,
            aspect: req.aspect,
            width,
            height,
            brand: { palette: req.brand.palette, fonts: req.brand.fonts, style: req.brand.style },
            companyMemory: req.brand.memory,
          }),
          signal: AbortSignal.timeout(timeoutMs),
          redirect: 'error',
        });
        if (res.status !== 200) throw new ProviderUnavailable(`status ${res.status}`);
        const declared = Number(res.headers.get('content-length') ?? 0);
        if (declared > MAX_BYTES) throw new ProviderUnavailable('image too large');
        body = await readCapped(res, MAX_BYTES);
      } catch (err) {
        if (err instanceof ProviderUnavailable) throw err;
        throw new ProviderUnavailable((err as Error).name === 'TimeoutError' ? 'timed out' : 'network error');
      }
      const mime = (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
      if (!MIMES.has(mime) || body.byteLength === 0 || body.byteLength > MAX_BYTES) {
        throw new ProviderUnavailable('not an image');
      }
      // Never trust the declared type: the bytes must decode as an image of that format.
      const image = await decodeImage(body);
      if (!image || image.mime !== mime) throw new ProviderUnavailable('not an image');
      return { bytes: body, ...image };
    },
  };
}

/** Reads a response body, giving up (outage) as soon as it passes `max` bytes. */
async function readCapped(res: Response, max: number): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (!res.body) return new Uint8Array();
  for await (const chunk of res.body) {
    size += chunk.byteLength;
    if (size > max) throw new ProviderUnavailable('image too large');
    chunks.push(chunk);
  }
  return new Uint8Array(Buffer.concat(chunks));
}

export function imageProviderFor(cfg: {
  imageProviderUrl?: string;
  imageProviderTimeoutMs: number;
}): ImageProvider {
  return cfg.imageProviderUrl
    ? httpImageProvider(cfg.imageProviderUrl, cfg.imageProviderTimeoutMs)
    : localImageProvider();
}
