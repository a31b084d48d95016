// The delegation key file in DATA_DIR (src/auth/oauth/delegation.ts): made once, whole and synced,
// the first of two racing writers winning; an empty or damaged file (what a power cut could leave when
// keys were written without a sync) is replaced instead of failing every OAuth call ("Zero-length key").
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { delegationKey } from '../../src/auth/oauth/delegation.js';
import { createFileDurablySync } from '../../src/kernel/durable-files.js';

const newDir = () => mkdtempSync(path.join(tmpdir(), 'sitegate-key-'));
const text = (k: Uint8Array) => new TextDecoder().decode(k);

describe('delegation key file', () => {
  it('is made once (0600, 32 random bytes) and read back the same', () => {
    const dataDir = path.join(newDir(), 'data'); // not there yet
    const first = text(delegationKey({ dataDir }));
    expect(first).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(readFileSync(path.join(dataDir, 'delegation.key'), 'utf8')).toBe(first);
    expect(statSync(path.join(dataDir, 'delegation.key')).mode & 0o777).toBe(0o600);
    expect(text(delegationKey({ dataDir }))).toBe(first);
    expect(readdirSync(dataDir)).toEqual(['delegation.key']); // no temporary file left
  });

  it('replaces an empty or damaged file, and keeps a whole one', () => {
    for (const damaged of ['', 'short', `${'a'.repeat(43)}!`]) {
      const dataDir = newDir();
      writeFileSync(path.join(dataDir, 'delegation.key'), damaged);
      const key = text(delegationKey({ dataDir }));
      expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(readFileSync(path.join(dataDir, 'delegation.key'), 'utf8')).toBe(key);
      expect(readdirSync(dataDir)).toEqual(['delegation.key']);
    }
    const dataDir = newDir();
    const whole = 'k'.repeat(43);
    writeFileSync(path.join(dataDir, 'delegation.key'), `${whole}\n`);
    expect(text(delegationKey({ dataDir }))).toBe(whole);
  });

  it('DELEGATION_SECRET wins, and no file is written', () => {
    const dataDir = newDir();
    expect(text(delegationKey({ dataDir, delegationSecret: 'from-the-environment' }))).toBe(
      'from-the-environment',
    );
    expect(readdirSync(dataDir)).toEqual([]);
  });

  it('two writers of one new file: the first content stays, the second is told so', () => {
    const file = path.join(newDir(), 'once');
    expect(createFileDurablySync(file, 'first')).toBe(true);
    expect(createFileDurablySync(file, 'second')).toBe(false);
    expect(readFileSync(file, 'utf8')).toBe('first');
    expect(readdirSync(path.dirname(file))).toEqual(['once']);
  });
});
