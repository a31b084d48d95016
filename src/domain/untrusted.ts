// Visitor-written text as data, never instructions (SPEC §1 last rule, DESIGN §5.1): every field an
// anonymous visitor wrote (lead, booking, contact) leaves the service fenced as
// `{ untrusted: true, text }`, with invisible and bidi control characters removed.
//
// What is stripped: every code point of Unicode general category Cf ("format"). That covers the
// zero-width characters (U+200B–U+200D, U+2060–U+2064, U+FEFF), the bidi marks, embeddings,
// overrides and isolates (U+200E/F, U+061C, U+202A–U+202E, U+2066–U+2069), the soft hyphen, the
// interlinear annotation characters and the tag characters (U+E0000 block, used for "ASCII
// smuggling"). Everything else — letters, emoji, combining marks, variation selectors, newlines,
// lone surrogates — is kept unit-for-unit. A known cost: emoji joined by ZWJ fall apart into their
// parts, and subdivision flags lose their tags; for text an agent reads, that is the safe side.

const FORMAT_CHARS = /\p{Cf}/gu;

export type Untrusted = { untrusted: true; text: string };

/** Removes every Unicode format (Cf) character and keeps everything else exactly. */
export function stripInvisible(text: string): string {
  return text.replace(FORMAT_CHARS, '');
}

/** Fences one visitor-written value. */
export function untrusted(text: string): Untrusted {
  return { untrusted: true, text: stripInvisible(text) };
}

/** Fences an optional visitor-written value; absent stays null. */
export function untrustedOrNull(text: string | null | undefined): Untrusted | null {
  return text == null ? null : untrusted(text);
}
