// The embedded storage survives a power cut, not only a killed process. A power cut cannot be staged
// here, but what surviving one takes can be seen: the real server runs under strace, which logs every
// fsync and fdatasync with the path of the file synced (-y). Without syncs a write sits in the kernel's
// page cache, which `kill -9` leaves intact (test/reliability/faults.test.ts) and a power cut does not.
// - A committed write syncs the WAL (PGlite ran with fsync off, and its file system could not sync).
// - By a clean stop, every file of the data folder has been synced at least once: a fresh folder's
//   initdb files included, which PostgreSQL's checkpoints never sync (src/db/client.ts syncs the tree).
// - A blob's bytes and its new name are synced before `put` returns, so the row that names them never
//   outlives them; so is the delegation key, before the server uses it.
// Embedded database only; skipped where strace is missing (CI installs it and sets SITEGATE_REQUIRE_STRACE).
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sitegate, until } from '../helpers/process.js';
import { type Child, call, newDataDir, start, stop } from './harness.js';

const hasStrace = spawnSync('strace', ['-V']).status === 0;
if (!hasStrace && process.env.SITEGATE_REQUIRE_STRACE === '1') {
  throw new Error('strace must run here (Debian: apt-get install strace).');
}

const traced = (log: string) => [
  'strace',
  '-f',
  '--seccomp-bpf',
  '-y',
  '-e',
  'trace=fsync,fdatasync',
  '-o',
  log,
];

/** Paths strace saw synced, one entry per sync, in order. */
function syncedPaths(log: string): string[] {
  const text = (() => {
    try {
      return readFileSync(log, 'utf8');
    } catch {
      return '';
    }
  })();
  // With -f, a sync that another thread's system call interrupts is written in two lines:
  // `PID fsync(12</path> <unfinished ...>`, later `PID <... fsync resumed>)   = 0` (padded).
  const synced: string[] = [];
  const pending = new Map<string, string>();
  for (const line of text.split('\n')) {
    const whole = /^(\d+\s+)?(?:fsync|fdatasync)\(\d+<([^>]+)>\)\s+= 0/.exec(line);
    if (whole) synced.push(whole[2]!);
    const started = /^(\d+)\s+(?:fsync|fdatasync)\(\d+<([^>]+)> <unfinished \.\.\.>/.exec(line);
    if (started) pending.set(started[1]!, started[2]!);
    const resumed = /^(\d+)\s+<\.\.\. (?:fsync|fdatasync) resumed>\)\s+= 0/.exec(line);
    const file = resumed && pending.get(resumed[1]!);
    if (file) synced.push(file);
    if (resumed) pending.delete(resumed[1]!);
  }
  return synced;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name));
}

describe.skipIf(!hasStrace || !!process.env.DATABASE_URL)('durable embedded storage (strace)', () => {
  const dir = newDataDir('durable');
  const log = path.join(dir, 'strace.log');
  let server: Child | undefined;
  afterAll(async () => {
    if (server) await stop(server);
  });

  it('a write syncs the WAL; by a clean stop every file of a new data folder has been synced', async () => {
    server = await start(dir, {}, path.join(dir, 'demo-out.json'), traced(log));
    const c = server;
    const listed = await call(c, c.demo.tokens.default, 'list_pages', {});
    const home = listed!.data.pages[0];
    const walSyncs = () => syncedPaths(log).filter((p) => p.includes('/pg_wal/')).length;
    const before = walSyncs();

    const edit = await call(c, c.demo.tokens.default, 'update_section_text', {
      pageId: home.pageId,
      sectionId: home.sections[0].sectionId,
      text: { heading: 'Bread that survives a power cut' },
    });
    expect(edit).toMatchObject({ ok: true });
    expect(await until(() => walSyncs() > before, 50)).toBe(true);

    // A clean stop: signal the server under strace, not strace.
    const strace = c.server.child.pid!;
    const [node] = readFileSync(`/proc/${strace}/task/${strace}/children`, 'utf8').trim().split(/\s+/);
    process.kill(Number(node), 'SIGTERM');
    const run = await c.server.done;
    server = undefined;
    expect(run.code).toBe(0); // strace exits with the server's status

    const synced = new Set(syncedPaths(log));
    const pgdata = path.join(dir, 'pgdata');
    const files = filesUnder(pgdata);
    expect(files.length).toBeGreaterThan(100);
    expect(files.filter((f) => !synced.has(f))).toEqual([]);
    expect(synced.has(pgdata)).toBe(true);
    // The delegation key: synced under its temporary name before it was linked into place.
    expect([...synced].some((p) => p.startsWith(path.join(dir, 'delegation.key.')))).toBe(true);
    expect(synced.has(dir)).toBe(true);
  }, 180_000);

  it('a backup and a restore are on disk when the commands finish', async () => {
    /** Runs the command under strace; every file it wrote under `folder`, and the folder's own name, synced. */
    const expectSyncedBy = async (args: string[], dataDir: string, folder: string, name: string) => {
      const traceLog = path.join(dir, `strace-${name}.log`);
      const r = await sitegate(args, { env: { DATA_DIR: dataDir, DATABASE_URL: '' }, wrap: traced(traceLog) })
        .done;
      expect(r.code, r.err).toBe(0);
      const synced = new Set(syncedPaths(traceLog));
      const files = filesUnder(folder);
      expect(files.length).toBeGreaterThan(0);
      expect(files.filter((f) => !synced.has(f))).toEqual([]);
      expect(synced).toContain(path.dirname(folder));
      return files;
    };
    // The data folder the test above left, with the server stopped.
    const out = path.join(newDataDir('durable-backup'), 'backup');
    await expectSyncedBy(['backup', '--out', out], dir, out, 'backup');
    const restored = path.join(newDataDir('durable-restore'), 'data');
    const files = await expectSyncedBy(['restore', '--from', out], restored, restored, 'restore');
    expect(files.length).toBeGreaterThan(100); // the whole database folder
  }, 120_000);

  it('a blob is on disk, under its new name, when put returns', async () => {
    const root = path.join(dir, 'blob-check');
    const script = `
      const { fileBlobStore } = await import('./src/domain/library/blobs.ts');
      const sha = await fileBlobStore(${JSON.stringify(root)}).put(new TextEncoder().encode('loaf'));
      console.log(sha);`;
    const blobLog = path.join(dir, 'strace-blob.log');
    const [cmd, ...args] = [
      ...traced(blobLog),
      process.execPath,
      '--import',
      'tsx',
      '--input-type=module',
      '-e',
      script,
    ];
    const child = spawn(cmd!, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(code).toBe(0);
    const sha = out.trim();
    const file = path.join(root, sha.slice(0, 2), sha);
    expect(readFileSync(file, 'utf8')).toBe('loaf');

    const synced = syncedPaths(blobLog);
    // The folders this put made (the shard, the store's root) and the one holding the first of them;
    // then the bytes, under the temporary name they are written to; then the shard again, for the name
    // they were renamed to.
    expect(synced).toEqual(expect.arrayContaining([path.dirname(file), root, path.dirname(root)]));
    const bytes = synced.findIndex((p) => p.startsWith(`${file}.`) && p.endsWith('.tmp'));
    expect(bytes).toBeGreaterThanOrEqual(0);
    expect(synced.slice(bytes + 1)).toContain(path.dirname(file));
  }, 60_000);
});
