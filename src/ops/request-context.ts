// Request ids (R-OPS-4): every HTTP request gets an id, answered in `X-Request-Id`, carried
// by every log line written while the request is handled (pino `mixin` reads it from
// AsyncLocalStorage, so domain code needs no logger of its own) and by failed tool results.
import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

const store = new AsyncLocalStorage<{ requestId: string }>();

export function newRequestId(): string {
  return randomUUID();
}

/** Runs `fn` with `requestId` as the current request's id. */
export function withRequestId<T>(requestId: string, fn: () => T): T {
  return store.run({ requestId }, fn);
}

export function currentRequestId(): string | undefined {
  return store.getStore()?.requestId;
}

/** pino `mixin`: adds `reqId` to each line logged inside a request. */
export function requestLogMixin(): Record<string, string> {
  const id = store.getStore()?.requestId;
  return id ? { reqId: id } : {};
}
