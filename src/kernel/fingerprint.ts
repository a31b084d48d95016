// One fingerprint: SHA-256 hex over a canonical JSON form of a value. Reviewed plans pin the revision
// they showed with it (R-DATA-3), and imported sections keep it to tell
// later in-app edits from the imported content (portable/merge.ts). Canonical means: object keys
// sorted, a key whose value is `undefined` left out (as JSON.stringify does, so an absent and an
// undefined field hash alike), `undefined` in an array or at the top as null, Dates as ISO strings.
// The same stored value therefore always gives the same fingerprint, before and after a JSONB round
// trip, and any change to any field gives another one.
import { createHash } from 'node:crypto';

export function canonicalJson(value: unknown): string {
  return JSON.stringify(normalise(value)) ?? 'null';
}

function normalise(value: unknown): unknown {
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(normalise);
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = normalise(v);
    }
    return out;
  }
  return value;
}

/** SHA-256 hex of `canonicalJson(value)`: what a reviewed revision or an imported section is pinned to. */
export function sha256OfCanonicalJson(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
