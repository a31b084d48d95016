// A long one-page site converts to more sections than a page may hold: neighbouring text sections are
// joined so no words are lost, and what still does not fit is said in actionsRequired, never cut silently.
import { describe, expect, it } from 'vitest';
import { convertPage, standaloneCtx } from '../../src/migrate/convert.js';
import { SECTION_SCHEMAS } from '../../src/domain/sections/types.js';

const url = new URL('https://onepage.example.com/');
const ref = (u: string) => `asset:${u.slice(-20).replace(/[^A-Za-z0-9]/g, '')}`;

describe('a page with more sections than a page holds', () => {
  it('keeps every heading and paragraph of 150 text sections, within 100 sections', () => {
    const blocks = Array.from(
      { length: 150 },
      (_, i) => `<section><h2>Part ${i + 1}</h2><p>Paragraph number ${i + 1} of the long page.</p></section>`,
    ).join('');
    const c = convertPage(`<html><body><h1>Long</h1>${blocks}</body></html>`, url, ref);
    expect(c.sections.length).toBeLessThanOrEqual(100);
    const json = JSON.stringify(c.sections);
    for (let i = 1; i <= 150; i++) {
      // Its heading, as a section's heading or as a "##" line of the text it was joined to.
      expect(json.includes(`"heading":"Part ${i}"`) || json.includes(`## Part ${i}\\n`), `Part ${i}`).toBe(
        true,
      );
      expect(json).toContain(`Paragraph number ${i} of the long page.`);
    }
    // The top of the page keeps its sections as they were.
    expect(c.sections[1]).toMatchObject({ type: 'text', content: { heading: 'Part 1' } });
    for (const s of c.sections)
      expect(SECTION_SCHEMAS[s.type as keyof typeof SECTION_SCHEMAS].safeParse(s.content).success).toBe(true);
    expect(c.actions).toEqual([]);
  });

  it('says how many sections were left out when joining text is not enough', () => {
    const pictures = Array.from(
      { length: 12 },
      (_, i) => `<section><h2>Photo ${i + 1}</h2><img src="/p${i + 1}.jpg" alt="Photo ${i + 1}"></section>`,
    ).join('');
    const ctx = { ...standaloneCtx(url, ref), sectionCap: 10 };
    const c = convertPage(`<html><body><h1>Photos</h1>${pictures}</body></html>`, url, ctx);
    expect(c.sections).toHaveLength(10);
    const dropped = c.actions.find((a) => a.includes('were left out'));
    expect(dropped).toMatch(/^\d+ sections? at the end of \/ (was|were) left out: it may hold at most 10/);
  });
});
