// API tokens (R-AUTH-2): `sg_live_` + 32 base62 characters. Only the SHA-256 hex and a
// 12-character display prefix are stored; the plaintext is shown once and never logged.
import { createHash, timingSafeEqual } from 'node:crypto';
import { base62 } from './ids.js';

export const TOKEN_PREFIX = 'sg_live_';
export const DELIVERY_PREFIX = 'sg_dlv_';
const TOKEN_RE = /^sg_live_[0-9A-Za-z]{32}$/;

export function mintToken(prefix = TOKEN_PREFIX): { token: string; hash: string; display: string } {
  const token = prefix + base62(32);
  return { token, hash: sha256Hex(token), display: token.slice(0, 12) };
}

export function looksLikeApiToken(s: string): boolean {
  return TOKEN_RE.test(s);
}

export function sha256Hex(s: string): string {
  return createHash('sha256').update(s).digest('hex');
}

/** Constant-time comparison of two secrets (or their hashes) of any length. */
export function safeEqual(a: string, b: string): boolean {
  const x = createHash('sha256').update(a).digest();
  const y = createHash('sha256').update(b).digest();
  return timingSafeEqual(x, y) && a.length === b.length;
}
