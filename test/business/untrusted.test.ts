import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stripInvisible, untrusted, untrustedOrNull } from '../../src/domain/untrusted.js';

// Code points that must disappear: zero-width, bidi marks/embeddings/overrides/isolates, other Cf.
const INVISIBLE = [
  0x00ad, 0x061c, 0x180e, 0x200b, 0x200c, 0x200d, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e,
  0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0x2066, 0x2067, 0x2068, 0x2069, 0x206a, 0x206f, 0xfeff, 0xfff9,
  0xfffb, 0xe0001, 0xe0041, 0xe007f,
].map((c) => String.fromCodePoint(c));

describe('stripInvisible', () => {
  it('removes each zero-width, bidi and other format character', () => {
    for (const ch of INVISIBLE) expect(stripInvisible(`a${ch}b`)).toBe('ab');
  });

  it('keeps visible text unit-for-unit: accents, scripts, emoji, combining marks, newlines, controls', () => {
    const keep = [
      'Crème brûlée — €45\n\tline two',
      'שלום עולם مرحبا',
      '日本語のテキスト',
      'e\u0301 (combining acute)',
      'Ω≈ç√∫ <script>alert(1)</script> {"json": true}',
      '\u0000\u001b[31m escape stays (not a format char)',
      '\ud800 lone surrogate',
    ];
    for (const s of keep) expect(stripInvisible(s)).toBe(s);
  });

  it('drops variation selectors and turns line/paragraph separators into newlines', () => {
    expect(stripInvisible('❤\ufe0f with variation selector')).toBe('❤ with variation selector');
    expect(stripInvisible('line\u2028separator\u2029paragraph')).toBe('line\nseparator\nparagraph');
  });

  it('is the identity on any string without format characters, and idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        const out = stripInvisible(s);
        expect(stripInvisible(out)).toBe(out);
        if (!/[\p{Cf}\p{Default_Ignorable_Code_Point}\u2800\u2028\u2029]/u.test(s)) expect(out).toBe(s);
        expect(/[\p{Cf}\p{Default_Ignorable_Code_Point}]/u.test(out)).toBe(false);
      }),
    );
  });

  it('only ever deletes: the output is the input minus the stripped code points, in order', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.string({ unit: 'grapheme' }), fc.constantFrom(...INVISIBLE))),
        (parts) => {
          const input = parts.join('');
          const expected = parts.filter((p) => !INVISIBLE.includes(p)).join('');
          // Pieces drawn from arbitrary graphemes may themselves hold Cf; compare against the same filter.
          expect(stripInvisible(input)).toBe(stripInvisible(expected));
          expect(stripInvisible(input).length).toBeLessThanOrEqual(input.length);
        },
      ),
    );
  });
});

describe('untrusted fence', () => {
  it('fences text and keeps null as null', () => {
    expect(untrusted('hi\u200b')).toEqual({ untrusted: true, text: 'hi' });
    expect(untrustedOrNull(null)).toBeNull();
    expect(untrustedOrNull(undefined)).toBeNull();
    expect(untrustedOrNull('')).toEqual({ untrusted: true, text: '' });
  });
});
