// Validation of a PortableSiteV1 payload before anything is fetched or written (R-IMP-1, R-IMP-2):
// caps first (payload_too_large), then the shape, then every section exactly like an edit
// (parseSectionContent: no HTML, no CSS, no unsafe URLs), with the refusal naming the section.
import { invalidInput } from '../kernel/errors.js';
import { parseSectionContent } from '../domain/sections/types.js';
import { checkPayloadCaps } from './caps.js';
import { referencedKeys, resolveAssetRefs } from './refs.js';
import { PortableSiteV1 } from './schema.js';

const PLACEHOLDER_ID = `asset_${'0'.repeat(16)}`;

export function parsePortable(raw: unknown): PortableSiteV1 {
  checkPayloadCaps(raw);
  const r = PortableSiteV1.safeParse(raw);
  if (!r.success) {
    const issues = r.error.issues.slice(0, 3).map((i) => `site.${i.path.join('.')}: ${i.message}`);
    throw invalidInput(
      `The PortableSiteV1 payload is invalid: ${issues.join('; ')}`,
      'Nothing was imported. The format is described at /schemas/portable-site-v1.json.',
    );
  }
  const site = r.data;
  const keys = new Set<string>();
  const slugs = new Set<string>();
  for (const p of site.pages) {
    if (slugs.has(p.slug)) throw invalidInput(`Two pages use the slug "${p.slug}".`);
    slugs.add(p.slug);
    for (const s of p.sections) {
      if (keys.has(s.externalKey)) throw invalidInput(`Two sections use the externalKey "${s.externalKey}".`);
      keys.add(s.externalKey);
    }
  }
  const assetKeys = new Set<string>();
  for (const a of site.assets) {
    if (assetKeys.has(a.key)) throw invalidInput(`Two assets use the key "${a.key}".`);
    assetKeys.add(a.key);
  }
  return site;
}

export function keyByUrl(site: PortableSiteV1): Map<string, string> {
  return new Map(site.assets.map((a) => [a.url, a.key]));
}

/**
 * Checks every section with asset references resolved to a placeholder id. `skipped` keys (assets a
 * migration could not bring in) are dropped from content; a section that is invalid without them is
 * dropped too and counted. Any other invalid section refuses the whole payload (import_site).
 */
export function validateSections(
  site: PortableSiteV1,
  skipped: ReadonlySet<string> = new Set(),
  /** Migration only: a converted section that fails validation is dropped, not fatal. */
  dropInvalid = false,
): number {
  const byUrl = keyByUrl(site);
  const known = new Set(site.assets.map((a) => a.key));
  if (site.brand.logo && !known.has(site.brand.logo.slice(6))) {
    throw invalidInput(`brand.logo refers to an unknown asset "${site.brand.logo}".`);
  }
  let dropped = 0;
  for (const page of site.pages) {
    page.sections = page.sections.filter((s) => {
      for (const k of referencedKeys(s.content, byUrl)) {
        if (!known.has(k)) {
          throw invalidInput(
            `Section "${s.externalKey}" on page "${page.slug}" refers to an unknown asset "${k}".`,
          );
        }
      }
      const content = resolveAssetRefs(s.content, byUrl, (k) =>
        skipped.has(k) ? undefined : PLACEHOLDER_ID,
      );
      const r = parseSectionContent(s.type, content);
      if (r.ok) return true;
      const usedSkipped = [...referencedKeys(s.content, byUrl)].some((k) => skipped.has(k));
      if (usedSkipped || dropInvalid) {
        dropped += 1;
        return false;
      }
      throw invalidInput(
        `Section "${s.externalKey}" on page "${page.slug}" is invalid: ${r.message}`,
        'Nothing was imported. Sections hold plain text or Markdown, never HTML or CSS.',
      );
    });
  }
  return dropped;
}
