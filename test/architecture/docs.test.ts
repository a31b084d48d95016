// The README stays a front page and the docs say what the code does. The README is under 300 lines,
// states no duration of a test or CI run (it goes stale with every test added), links every page of
// docs/, and its client configurations are exactly what the Developers page and `sitegate serve --demo`
// print (src/web/pages/snippets.ts). docs/configuration.md lists exactly the environment variables
// `serve` accepts (ENV_HELP in src/config.ts), no more and no fewer.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ENV_HELP } from '../../src/config.js';
import { clientConfig, clientSnippets } from '../../src/web/pages/snippets.js';

const readme = readFileSync('README.md', 'utf8');

it('the README is under 300 lines', () => {
  expect(readme.split('\n').length).toBeLessThan(300);
});

/** A number of minutes or hours: `16–17 minutes`, `2 h`, `90 min`. */
const DURATION = /\b\d+(?:[–-]\d+)?\s*(?:minutes?|mins?|hours?|h)\b/i;

it('the README states no duration of a run', () => {
  expect(readme.split('\n').filter((l) => DURATION.test(l))).toEqual([]);
  // The check can fail: the sentence the README used to end its CI paragraph with.
  expect(DURATION.test('the whole run took 16–17 minutes (2026-11-23)')).toBe(true);
});

it('the README links every page of docs/', () => {
  const pages = readdirSync('docs').filter((f) => f.endsWith('.md'));
  expect(pages.length).toBeGreaterThan(10);
  expect(pages.filter((p) => !readme.includes(`](docs/${p})`))).toEqual([]);
});

describe("the README's client configurations are the ones Sitegate prints", () => {
  const url = 'http://127.0.0.1:8787/api/mcp';
  const token = 'sg_live_…';
  /** The JSON block that follows the bold label `**<client>**` in the README. */
  const blockAfter = (label: string): unknown => {
    const at = readme.indexOf(`**${label}**`);
    expect(at, label).toBeGreaterThanOrEqual(0);
    const m = /```json\n([\s\S]*?)\n```/.exec(readme.slice(at));
    return JSON.parse(m![1]!);
  };
  const printed = (client: string) =>
    JSON.parse(clientSnippets(url, token).find((s) => s.client.startsWith(client))!.json);

  it.each([['Cursor'], ['VS Code'], ['Claude Desktop']])('%s', (client) => {
    expect(blockAfter(client)).toEqual(printed(client));
  });

  it('Cursor’s is the one `mcpServers` entry the CLI prints', () => {
    expect(blockAfter('Cursor')).toEqual(clientConfig(url, token));
  });
});

it('docs/configuration.md lists exactly the variables serve accepts', () => {
  const doc = readFileSync('docs/configuration.md', 'utf8');
  const rows = doc.split('\n').filter((l) => /^\| `[A-Z]/.test(l));
  const named = rows.flatMap((r) => [...r.split('|')[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((m) => m[1]!));
  expect([...named].sort()).toEqual(Object.keys(ENV_HELP).sort());
});
