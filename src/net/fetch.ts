// One guarded HTTP GET (R-MIG-2, R-IMP-3): every hop goes through
// the SSRF guard (ssrf.ts); redirects are followed by hand so each Location is re-checked; the body is
// read up to a byte cap and the whole request is bounded in time. Failures are typed (FetchFailure),
// except an unsafe address, which is the unsafe_url refusal.
import { request } from 'undici';
import { type Guard, isUnsafe, unsafeUrl } from './ssrf.js';

export const USER_AGENT = 'SitegateBot/1.0 (+site import; respects robots.txt)';

export type FetchOptions = {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects?: number;
  accept?: string;
  /** Sent as User-Agent; default: the crawler's. */
  userAgent?: string;
  /** Refuse a redirect that leaves this origin (crawl pages). */
  sameOrigin?: string;
  /** Called before following a redirect; throw to stop (the crawler checks robots.txt here). */
  beforeRedirect?: (next: URL) => void;
};

export type Fetched = {
  url: URL;
  status: number;
  contentType: string;
  /** The caching headers, for callers that keep what they fetched (cache-control, expires). */
  cacheControl: string;
  expires: string;
  body: Buffer;
};

export type FailReason =
  | 'status'
  | 'too_large'
  | 'timeout'
  | 'redirect_loop'
  | 'off_site'
  | 'robots'
  | 'network';

export class FetchFailure extends Error {
  constructor(
    readonly reason: FailReason,
    message: string,
  ) {
    super(message);
    this.name = 'FetchFailure';
  }
}

export async function guardedFetch(guard: Guard, raw: string | URL, opts: FetchOptions): Promise<Fetched> {
  let url = guard.check(raw);
  const seen = new Set<string>([url.href]);
  const maxRedirects = opts.maxRedirects ?? 5;
  const signal = AbortSignal.timeout(opts.timeoutMs);
  for (let hop = 0; ; hop++) {
    await guard.pin(url);
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await request(url, {
        method: 'GET',
        dispatcher: guard.agent,
        signal,
        headers: { 'user-agent': opts.userAgent ?? USER_AGENT, accept: opts.accept ?? '*/*' },
      });
    } catch (err) {
      if (isUnsafe(err)) throw unsafeUrl('That address points to a private or reserved network.');
      if (signal.aborted) throw new FetchFailure('timeout', 'The request took too long.');
      throw new FetchFailure('network', 'The address could not be reached.');
    }
    if (res.statusCode >= 300 && res.statusCode < 400 && res.headers.location) {
      await res.body.dump().catch(() => {});
      const loc = String(res.headers.location);
      const next = guard.check(loc, url); // re-checked: a redirect to a private address is refused
      if (opts.sameOrigin && next.origin !== opts.sameOrigin) {
        throw new FetchFailure('off_site', 'The page redirects to another site.');
      }
      if (seen.has(next.href)) throw new FetchFailure('redirect_loop', 'The page redirects in a loop.');
      if (hop + 1 > maxRedirects) throw new FetchFailure('redirect_loop', 'Too many redirects.');
      opts.beforeRedirect?.(next);
      seen.add(next.href);
      url = next;
      continue;
    }
    if (res.statusCode < 200 || res.statusCode >= 300) {
      await res.body.dump().catch(() => {});
      throw new FetchFailure('status', `The server answered ${res.statusCode}.`);
    }
    const declared = Number(res.headers['content-length'] ?? 0);
    if (declared > opts.maxBytes) {
      res.body.destroy();
      throw new FetchFailure('too_large', 'The response is too large.');
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of res.body) {
        size += (chunk as Buffer).length;
        if (size > opts.maxBytes) {
          res.body.destroy();
          throw new FetchFailure('too_large', 'The response is too large.');
        }
        chunks.push(chunk as Buffer);
      }
    } catch (err) {
      if (err instanceof FetchFailure) throw err;
      if (signal.aborted) throw new FetchFailure('timeout', 'The request took too long.');
      throw new FetchFailure('network', 'The response was cut off.');
    }
    const header = (name: string) => {
      const v = res.headers[name];
      return String(Array.isArray(v) ? v[0] : (v ?? ''));
    };
    return {
      url,
      status: res.statusCode,
      contentType: header('content-type').toLowerCase(),
      cacheControl: header('cache-control'),
      expires: header('expires'),
      body: Buffer.concat(chunks),
    };
  }
}
