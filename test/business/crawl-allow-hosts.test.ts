// CRAWL_ALLOW_HOSTS is an operator setting (docs/configuration.md, docs/operating.md): a host:port list
// of private addresses site migration may fetch from, empty by default, documented in
// `sitegate serve --help`; a malformed entry stops the start instead of silently allowing nothing.
import { expect, it } from 'vitest';
import { ENV_HELP, loadConfig } from '../../src/config.js';
import { sitegate } from '../helpers/process.js';

it('is a host:port list, empty by default, and refuses anything else', () => {
  expect(loadConfig({}).crawlAllowHosts).toEqual([]);
  expect(
    loadConfig({ CRAWL_ALLOW_HOSTS: ' staging.lan:8080, 10.0.0.5:80 ,[fd00::5]:8443,' }).crawlAllowHosts,
  ).toEqual(['staging.lan:8080', '10.0.0.5:80', '[fd00::5]:8443']);
  for (const bad of [
    'staging.lan',
    'http://staging.lan:8080',
    '10.0.0.0/8:80',
    '*:80',
    'a:b',
    'fd00::5:80',
  ]) {
    expect(() => loadConfig({ CRAWL_ALLOW_HOSTS: bad }), bad).toThrow(/CRAWL_ALLOW_HOSTS: .*host:port/);
  }
  expect(ENV_HELP.CRAWL_ALLOW_HOSTS).toMatch(/host:port/);
  expect(ENV_HELP.CRAWL_ALLOW_HOSTS).not.toMatch(/tests only/);
});

it('`sitegate serve --help` documents it', async () => {
  const run = await sitegate(['serve', '--help']).done;
  expect(run.code).toBe(0);
  expect(run.out).toMatch(/CRAWL_ALLOW_HOSTS\s+host:port list .*private addresses.*empty by default/);
});
