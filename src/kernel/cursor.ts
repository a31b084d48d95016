// Opaque keyset cursors: the last listed row's key as base64url JSON. One codec for every paged list
// (customer records, list_pages, the site console); each list says what its key holds.
import { invalidInput } from './errors.js';

/** Longest cursor decoded: a key is a few ids and numbers, checked before anything is parsed. */
const MAX_CURSOR = 300;

export function encodeKey(key: Record<string, string | number>): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

/** The key a cursor holds if `valid` accepts it, else the one invalid_input refusal of every list. */
export function decodeKey<K>(raw: string, valid: (v: Record<string, unknown>) => K | null, hint: string): K {
  let key: K | null = null;
  if (raw.length <= MAX_CURSOR) {
    try {
      const v = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8'));
      if (v && typeof v === 'object' && !Array.isArray(v)) key = valid(v as Record<string, unknown>);
    } catch {
      key = null;
    }
  }
  if (key === null) throw invalidInput('That cursor is not valid.', hint);
  return key;
}

/** An id a key may carry: a string of at most 64 characters. */
export const isKeyId = (v: unknown): v is string => typeof v === 'string' && v.length <= 64;
