// Asset references inside section content (PortableSiteV1 design): a string that is exactly
// `asset:<key>` or exactly the URL of a listed asset becomes the library asset id once imported;
// export turns asset ids back into `asset:<key>`. Also the content fingerprint merges compare.
import { createHash } from 'node:crypto';

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

/** Stable hash of section content (key order independent): equal before and after a JSONB round trip. */
/**
 * What an import wrote into a section, for telling later app edits apart (SPEC §4.5: "edited" is any
 * change to type, content, layout or hidden since the import; issue 10 item 7). Prefixed `v2:` so rows
 * imported before this rule (content-only fingerprints) are still compared the old way.
 */
export function importFingerprint(s: {
  type: string;
  content: unknown;
  layout: unknown;
  hidden: boolean;
}): string {
  return `v2:${fingerprint({ type: s.type, content: s.content, layout: s.layout ?? {}, hidden: s.hidden })}`;
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
  return fp !== fingerprint(current.content);
}

export function fingerprint(content: unknown): string {
  return createHash('sha256').update(stable(content)).digest('hex');
}

function stable(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stable).join(',')}]`;
  if (isObj(v)) {
    const keys = Object.keys(v)
      .filter((k) => v[k] !== undefined)
      .sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stable(v[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}
