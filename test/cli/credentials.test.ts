// The CLI's saved sign-ins (src/cli/credentials.ts): each save replaces the file whole (a new file
// renamed over the old one), so a crash mid-write cannot leave a truncated file, and the new file is
// 0600 even where the old one had been loosened.
import {
  chmodSync,
  linkSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type Credential,
  credentialsPath,
  forgetCredential,
  readCredential,
  storeCredential,
} from '../../src/cli/credentials.js';
import { pairCommand } from '../../src/cli/pair.js';

const cred = (url: string, token: string): Credential => ({
  url,
  token,
  scopes: ['site:read'],
  reach: 'all',
  clientName: 'test',
  pairedAt: '2026-11-26T00:00:00.000Z',
});

describe('CLI credentials file', () => {
  const saved = process.env.XDG_CONFIG_HOME;
  let home: string;
  beforeEach(() => {
    home = mkdtempSync(path.join(tmpdir(), 'sitegate-cred-'));
    process.env.XDG_CONFIG_HOME = home;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.XDG_CONFIG_HOME;
    else process.env.XDG_CONFIG_HOME = saved;
  });

  it('is replaced whole on every save, 0600, with no temporary file left', () => {
    storeCredential(cred('http://a.test', 'sg_live_first'));
    const file = credentialsPath();
    expect(file).toBe(path.join(home, 'sitegate', 'credentials.json'));
    chmodSync(file, 0o644);
    // A second name for the old file: a save that wrote into the old file would change it too.
    const old = path.join(home, 'old.json');
    linkSync(file, old);
    const before = readFileSync(old, 'utf8');

    storeCredential(cred('http://b.test', 'sg_live_second'));
    expect(readFileSync(old, 'utf8')).toBe(before);
    expect(statSync(file).ino).not.toBe(statSync(old).ino);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readdirSync(path.dirname(file))).toEqual(['credentials.json']);
    expect(readCredential()?.token).toBe('sg_live_second');
    expect(readCredential('http://a.test')?.token).toBe('sg_live_first');

    expect(forgetCredential('http://b.test')?.token).toBe('sg_live_second');
    expect(readCredential()?.url).toBe('http://a.test');
    expect(readdirSync(path.dirname(file))).toEqual(['credentials.json']);
  });

  it('refuses a damaged file with what to do, and leaves it as it was', async () => {
    const file = credentialsPath();
    mkdirSync(path.dirname(file), { recursive: true });
    for (const damaged of ['{"servers": {"http://a.test": ', 'null', '{"current": "x"}', '[]']) {
      writeFileSync(file, damaged);
      const refusal = `${file} is not a Sitegate credentials file. Remove it, then run sitegate pair again.`;
      expect(() => readCredential()).toThrow(refusal);
      expect(() => storeCredential(cred('http://b.test', 'sg_live_new'))).toThrow(refusal);
      expect(() => forgetCredential()).toThrow(refusal);
      // Before asking the server (nothing listens on port 9): an approved token would have nowhere to go.
      await expect(pairCommand({ url: 'http://127.0.0.1:9' })).rejects.toThrow(refusal);
      expect(readFileSync(file, 'utf8')).toBe(damaged);
      expect(readdirSync(path.dirname(file))).toEqual(['credentials.json']);
    }
  });
});
