// Visitor-written text as data, never instructions (R-SURF-7): every field an
// anonymous visitor wrote (lead, booking, contact) leaves the service fenced as
// `{ untrusted: true, text }`, with invisible and bidi control characters removed.
//
// What is stripped (R-SURF-7): every code point that renders as nothing yet an agent still
// reads, so a hidden payload cannot ride along inside visible text:
// - Unicode general category Cf ("format"): zero-width characters, the bidi marks, embeddings,
//   overrides and isolates (U+200E/F, U+061C, U+202A–U+202E, U+2066–U+2069), the soft hyphen;
// - every Default_Ignorable_Code_Point (Unicode's own list of "render as nothing"): variation
//   selectors (U+FE00–FE0F, U+E0100–E01EF, U+180B–180F), tag characters (U+E0000–E007F, "ASCII
//   smuggling"), Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), U+034F, U+17B4/U+17B5 and the
//   reserved ranges Unicode keeps ignorable for the future;
// - U+2800 (braille blank, which renders empty but is not on that list).
// U+2028/U+2029 (line and paragraph separators) become an ordinary newline. Everything else —
// letters, emoji, combining marks, newlines — is kept unit-for-unit. A known cost: emoji joined by
// ZWJ fall apart into their parts and lose their emoji-presentation selector, and subdivision flags
// lose their tags; for text an agent reads, that is the safe side.

const INVISIBLE = /[\p{Cf}\p{Default_Ignorable_Code_Point}\p{Variation_Selector}\u2800\u{E0000}-\u{E007F}]/gu;
const SEPARATORS = /[\u2028\u2029]/g;

export type Untrusted = { untrusted: true; text: string };

/** Removes every invisible code point (above) and keeps everything else exactly. */
export function stripInvisible(text: string): string {
  return text.replace(INVISIBLE, '').replace(SEPARATORS, '\n');
}

/** Fences one visitor-written value. */
export function untrusted(text: string): Untrusted {
  return { untrusted: true, text: stripInvisible(text) };
}

/** Fences an optional visitor-written value; absent stays null. */
export function untrustedOrNull(text: string | null | undefined): Untrusted | null {
  return text == null ? null : untrusted(text);
}
