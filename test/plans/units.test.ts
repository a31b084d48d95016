// Pure pieces of the rail: the set of plan kinds, fingerprints and the mail retry schedule.
import { expect, it } from 'vitest';
import { canonicalJson, sha256OfCanonicalJson as fingerprint } from '../../src/kernel/fingerprint.js';
import { backoffMs } from '../../src/domain/mail/mailer.js';
import { KINDS } from '../../src/plans/kinds/index.js';
import { PLAN_KINDS } from '../../src/plans/kinds/types.js';

it('the rail knows exactly the seven plan kinds (R-PLAN-7), each with one executor', () => {
  expect([...PLAN_KINDS].sort()).toEqual(
    [
      'create_company',
      'grant_access',
      'publish',
      'publish_product',
      'search_visibility',
      'send_document',
      'unpublish',
    ].sort(),
  );
  for (const k of PLAN_KINDS) expect(KINDS[k].kind).toBe(k);
});

it('fingerprints ignore key order and see every field, nested values and dates included', () => {
  const a = { b: 1, a: [{ y: 2, x: 1 }], d: new Date('2026-01-01T00:00:00Z') };
  const b = { d: new Date('2026-01-01T00:00:00Z'), a: [{ x: 1, y: 2 }], b: 1 };
  expect(canonicalJson(a)).toBe(canonicalJson(b));
  expect(fingerprint(a)).toBe(fingerprint(b));
  expect(fingerprint({ ...a, b: 2 })).not.toBe(fingerprint(a));
  expect(fingerprint({ ...a, a: [{ x: 1, y: 3 }] })).not.toBe(fingerprint(a));
  expect(fingerprint({ ...a, d: new Date('2026-01-01T00:00:01Z') })).not.toBe(fingerprint(a));
  expect(fingerprint({ ...a, e: null })).not.toBe(fingerprint(a));
});

it('one fingerprint for plans and imports: an undefined field hashes as an absent one, never throws', () => {
  // portable/refs.ts had its own `fingerprint` that dropped undefined fields while this one kept
  // Dates; both now share kernel/fingerprint.ts.
  expect(fingerprint({ a: 1, b: undefined })).toBe(fingerprint({ a: 1 }));
  expect(fingerprint([1, undefined])).toBe(fingerprint([1, null]));
  expect(fingerprint(undefined)).toBe(fingerprint(null));
  const d = new Date('2026-01-01T00:00:00Z');
  expect(fingerprint({ d })).toBe(fingerprint(JSON.parse(JSON.stringify({ d }))));
});

it('section content hashes as it did before the merge, so stored import fingerprints stay valid', () => {
  // The digest the former portable/refs.ts fingerprint gave for this content (computed on fd72e68):
  // sections imported before this change must not all look "edited in the app" to the next merge.
  const content = {
    heading: 'Fresh bread',
    items: [{ title: 'Rye', url: 'asset:rye', n: 3 }, null, true],
    layout: { width: 'wide' },
    z: 'é😀"\\',
  };
  expect(fingerprint(content)).toBe('73d9f0f934aeb2f2a9a3015b8ef39905ed947ad7b5fe812e2a0575b30b0f6a35');
});

it('mail retries back off 1, 2, 4 … minutes, capped at an hour', () => {
  expect([1, 2, 3, 4].map(backoffMs)).toEqual([60_000, 120_000, 240_000, 480_000]);
  expect(backoffMs(20)).toBe(3_600_000);
});
