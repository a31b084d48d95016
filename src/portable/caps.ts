// Payload caps of PortableSiteV1 (R-IMP-2), checked on the raw JSON before
// the shape is parsed, so an oversized payload is refused with payload_too_large, naming the cap.
import { Refusal } from '../kernel/errors.js';
import { PORTABLE_CAPS } from './schema.js';

function tooLarge(what: string, limit: number): Refusal {
  return new Refusal(
    'payload_too_large',
    `The import payload is too large: more than ${limit} ${what}.`,
    'Nothing was imported. Split the site into smaller imports (merge the rest with mergeIntoWebsiteId).',
  );
}

export function checkPayloadCaps(raw: unknown, caps: typeof PORTABLE_CAPS = PORTABLE_CAPS): void {
  const bytes = Buffer.byteLength(JSON.stringify(raw ?? null), 'utf8');
  if (bytes > caps.bytes) throw tooLarge('bytes', caps.bytes);
  const site = (raw ?? {}) as { pages?: unknown; assets?: unknown };
  const pages = Array.isArray(site.pages) ? site.pages : [];
  if (pages.length > caps.pages) throw tooLarge('pages', caps.pages);
  let total = 0;
  for (const p of pages) {
    const secs = (p as { sections?: unknown } | null)?.sections;
    const n = Array.isArray(secs) ? secs.length : 0;
    if (n > caps.sectionsPerPage) throw tooLarge('sections on one page', caps.sectionsPerPage);
    total += n;
  }
  if (total > caps.sections) throw tooLarge('sections', caps.sections);
  if (Array.isArray(site.assets) && site.assets.length > caps.assets) throw tooLarge('assets', caps.assets);
}
