// Prefixed random ids (`site_4Fh…`): readable in logs, unguessable, never sequential.
import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `n` base62 characters from the CSPRNG, without modulo bias (rejection sampling). */
export function base62(n: number): string {
  let out = '';
  while (out.length < n) {
    for (const byte of randomBytes(n * 2)) {
      if (byte < 248 && out.length < n) out += ALPHABET[byte % 62];
    }
  }
  return out;
}

export function newId(prefix: string): string {
  return `${prefix}_${base62(16)}`;
}
