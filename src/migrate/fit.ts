// A page holds at most as many sections as an import accepts. A long one-page site converts to more:
// then neighbouring text sections are joined (a section's heading becomes a "##" line of the text
// before it) until the page fits, so no words are cut; only if that is not enough are the last
// sections left out, and the owner is told how many.
import { PORTABLE_CAPS } from '../portable/schema.js';
import { safeMarkdown } from './dom.js';
import type { Draft } from './groups.js';

export const SECTIONS_PER_PAGE: number = PORTABLE_CAPS.sectionsPerPage;
const TEXT_MAX = 20_000;

function joinable(a: Draft | undefined, b: Draft | undefined): boolean {
  return a?.type === 'text' && b?.type === 'text' && a.identity !== 'footer' && b.identity !== 'footer';
}

function joined(a: Draft, b: Draft): Draft | null {
  const heading = typeof b.content.heading === 'string' ? `## ${b.content.heading}\n\n` : '';
  const body = `${String(a.content.body ?? '')}\n\n${heading}${String(b.content.body ?? '')}`.trim();
  if (body.length > TEXT_MAX) return null;
  return { ...a, content: { ...a.content, body: safeMarkdown(body, TEXT_MAX) } };
}

/** The sections, joined to fit the cap, and how many had to be left out even so. */
export function fitSections(
  sections: readonly Draft[],
  cap = SECTIONS_PER_PAGE,
): {
  sections: Draft[];
  dropped: number;
} {
  const out = [...sections];
  // Join from the end, so the top of the page keeps its sections as they were; each join removes one.
  for (let i = out.length - 2; i >= 0 && out.length > cap; i--) {
    if (!joinable(out[i], out[i + 1])) continue;
    const j = joined(out[i]!, out[i + 1]!);
    if (j) out.splice(i, 2, j);
  }
  return { sections: out.slice(0, cap), dropped: Math.max(0, out.length - cap) };
}
