// Asset references inside section content (PortableSiteV1 design): a string that is exactly
// `asset:<key>` or exactly the URL of a listed asset becomes the library asset id once imported;
// export turns asset ids back into `asset:<key>`. (The content fingerprint merges compare is
// kernel/fingerprint.ts; importFingerprint below says what it covers.)
import { sha256OfCanonicalJson } from '../kernel/fingerprint.js';

/** Rewrites every string leaf with `map`; `undefined` drops the field (and an array item that loses its url). */
export function mapStrings(value: unknown, map: (s: string) => string | undefined): unknown {
  if (typeof value === 'string') return map(value);
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (const v of value) {
      const m = mapStrings(v, map);
      if (m === undefined) continue;
      if (isObj(v) && typeof v.url === 'string' && isObj(m) && m.url === undefined) continue;
      out.push(m);
    }
    return out;
  }
  if (isObj(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const m = mapStrings(v, map);
      if (m !== undefined) out[k] = m;
    }
    return out;
  }
  return value;
}

function isObj(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Every `asset:<key>` / asset URL in content resolved through `resolve` (key -> replacement). */
export function resolveAssetRefs(
  content: Record<string, unknown>,
  keyByUrl: ReadonlyMap<string, string>,
  resolve: (key: string) => string | undefined,
): Record<string, unknown> {
  return mapStrings(content, (s) => {
    if (s.startsWith('asset:')) return resolve(s.slice(6));
    const key = keyByUrl.get(s);
    return key === undefined ? s : resolve(key);
  }) as Record<string, unknown>;
}

/** Keys referenced by content (`asset:<key>` strings and listed URLs). */
export function referencedKeys(content: unknown, keyByUrl: ReadonlyMap<string, string>): Set<string> {
  const keys = new Set<string>();
  mapStrings(content, (s) => {
    if (s.startsWith('asset:')) keys.add(s.slice(6));
    else if (keyByUrl.has(s)) keys.add(keyByUrl.get(s)!);
    return s;
  });
  return keys;
}

/**
 * What an import wrote into a section, for telling later app edits apart (R-IMP-4: "edited" is any
 * change to type, content, layout or hidden since the import). Prefixed `v2:` so rows
 * imported before this rule (content-only fingerprints) are still compared the old way.
 */
export function importFingerprint(s: {
  type: string;
  content: unknown;
  layout: unknown;
  hidden: boolean;
}): string {
  return `v2:${sha256OfCanonicalJson({ type: s.type, content: s.content, layout: s.layout ?? {}, hidden: s.hidden })}`;
}

/** True when the section differs from what the last import wrote into it. */
export function editedSinceImport(current: {
  type: string;
  content: unknown;
  layout: unknown;
  hidden: boolean;
  importFingerprint: string | null;
}): boolean {
  const fp = current.importFingerprint;
  if (fp?.startsWith('v2:')) return fp !== importFingerprint(current);
  return fp !== sha256OfCanonicalJson(current.content);
}
