// The Customers table in Chromium at 1280 px and 390 px: names, email addresses and messages break
// between words, or beside the punctuation of a double name, an address or a link (its "@", a dot,
// plus sign, hyphen or slash), never in the middle of a word. The page still fits.
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { leads } from '../../src/db/schema.js';
import { newId } from '../../src/kernel/ids.js';
import { browserSuite } from '../helpers/browser.js';
import { overflowOf, signedIn } from '../helpers/owner-pages.js';

const suite = browserSuite({ seed: false });

/**
 * Where the text of each matching element wraps inside a word: the characters on both sides of every
 * line break that is not at a space, as "left|right".
 */
function midWordBreaks(page: Page, selector: string): Promise<string[]> {
  return page.$$eval(selector, (cells) => {
    const out: string[] = [];
    for (const cell of cells) {
      const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
      const chars: Array<{ ch: string; top: number; block: Element }> = [];
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const text = n.textContent ?? '';
        // The block the text is in: a new block (a note under the message) is a new line, not a break.
        let block = n.parentElement!;
        while (block !== cell && getComputedStyle(block).display === 'inline') block = block.parentElement!;
        for (let i = 0; i < text.length; i++) {
          const r = document.createRange();
          r.setStart(n, i);
          r.setEnd(n, i + 1);
          const rect = r.getClientRects()[0];
          if (rect) chars.push({ ch: text[i]!, top: Math.round(rect.top), block });
        }
      }
      for (let i = 1; i < chars.length; i++) {
        const a = chars[i - 1]!;
        const b = chars[i]!;
        if (b.top > a.top + 2 && a.block === b.block && !/\s/.test(a.ch) && !/\s/.test(b.ch))
          out.push(`${a.ch}|${b.ch}`);
      }
    }
    return out;
  });
}

it('breaks names, addresses and messages only where a reader expects', async () => {
  const d = await suite.s.seed();
  const db = suite.s.sg.deps.services.db;
  await db.insert(leads).values([
    {
      id: newId('lead'),
      websiteId: d.websites.main,
      status: 'new',
      name: 'Maximiliana Oosterhuizen-Vandenberghe',
      email: 'maximiliana.oosterhuizen-vandenberghe+bakery@example-bakery-customers.com',
      phone: '+31 6 5555 0000',
      message:
        'Could you bake a three-tiered wedding cake with lemon curd and elderflower for Saturday afternoon? See https://example.com/wedding/inspiration/pictures/cake-with-flowers-and-lemons-2026.jpg',
    },
    {
      id: newId('lead'),
      websiteId: d.websites.main,
      status: 'new',
      name: 'Jo',
      email: 'jo@example.com',
      message: 'Sourdough on Sundays?',
    },
  ]);
  for (const width of [1280, 390]) {
    const page = await signedIn(suite.browser, suite.s.url, d.users.owner, width);
    await page.goto(`${suite.s.url}/dashboard/sites/${d.websites.main}/customers`);
    const cells = (label: string) => `#leads td[data-label="${label}"]`;
    // A name breaks between its words, or after the hyphen of a double name.
    for (const b of await midWordBreaks(page, cells('Name')))
      expect(b, `a name at ${width}px`).toMatch(/^-\|/);
    // An address breaks only next to its @, a dot, a plus sign or a hyphen.
    const inAddress = await midWordBreaks(page, cells('Email'));
    for (const b of inAddress) expect(b, `an address at ${width}px`).toMatch(/^(.\|[@.+-]|[@.+-]\|.)$/);
    // A message breaks between words, or beside the punctuation of an address or a link.
    for (const b of await midWordBreaks(page, cells('Message')))
      expect(b, `a message at ${width}px`).toMatch(/^(.\|[@.+\-/?&=_]|[@.+\-/?&=_]\|.)$/);
    expect(await overflowOf(page), `fits ${width}px`).toBeLessThanOrEqual(0);
    await page.context().close();
  }
}, 60_000);
