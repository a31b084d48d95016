// Files that must survive a power cut, not only a crashed process. A write reaches the kernel's page
// cache at once, and a killed process loses nothing of it; the disk gets it up to half a minute later,
// unless the file is fsynced. A new file's name lives in its folder, which needs an fsync of its own.
// The synchronous forms are for start-up and the CLI; a serving path uses the asynchronous ones, so a
// slow disk never holds the event loop.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  linkSync,
  openSync,
  readdirSync,
  renameSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import { mkdir, open, rename } from 'node:fs/promises';
import path from 'node:path';

/** fsyncs one file or folder. */
function syncPath(p: string): void {
  const fd = openSync(p, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

async function syncPathAsync(p: string): Promise<void> {
  const handle = await open(p, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * fsyncs every file and folder under `dir`, `dir` itself and the folder holding its name: for a tree
 * written without syncs (a new embedded database, a backup, a restore) before anything is built on it
 * or it is reported done.
 */
export function syncNewTree(dir: string): void {
  const walk = (d: string) => {
    for (const entry of readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) walk(p);
      else if (entry.isFile()) syncPath(p);
    }
    syncPath(d);
  };
  walk(dir);
  syncPath(path.dirname(dir));
}

/** A name beside `file` for writing it under, unique to this writer. */
const tmpBeside = (file: string) => `${file}.${randomBytes(6).toString('hex')}.tmp`;

/** Makes `dir` and any missing parents, each new name synced in the folder that holds it. */
async function mkdirDurably(dir: string): Promise<void> {
  const first = await mkdir(dir, { recursive: true });
  if (!first) return;
  for (let p = dir; ; p = path.dirname(p)) {
    await syncPathAsync(p);
    if (p === first) break;
  }
  await syncPathAsync(path.dirname(first));
}

/**
 * Writes `bytes` to `file` whole or not at all, and on disk when it resolves: its folder made if
 * missing, a temporary file beside it fsynced and renamed over `file`, then the folder fsynced (the new
 * name).
 */
export async function writeFileDurably(file: string, bytes: Uint8Array): Promise<void> {
  await mkdirDurably(path.dirname(file));
  const tmp = tmpBeside(file);
  const handle = await open(tmp, 'wx');
  try {
    await handle.writeFile(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(tmp, file);
  await syncPathAsync(path.dirname(file));
}

/** Writes `data` to a new temporary file beside `file` and syncs it; returns its path. */
function stageSync(file: string, data: string, mode: number): string {
  const tmp = tmpBeside(file);
  const fd = openSync(tmp, 'wx', mode);
  try {
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  return tmp;
}

/**
 * Creates `file` with `data`, whole and on disk, unless it exists: false then, and `file` is left as
 * it is (when two processes race, the first one's content wins and both read it). A power cut leaves
 * either no file or the whole content, never an empty file.
 */
export function createFileDurablySync(file: string, data: string, mode = 0o600): boolean {
  const tmp = stageSync(file, data, mode);
  try {
    linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  } finally {
    unlinkSync(tmp);
  }
  syncPath(path.dirname(file));
  return true;
}

/** Replaces `file` with `data`, whole and on disk (a temporary file renamed over it). */
export function replaceFileDurablySync(file: string, data: string, mode = 0o600): void {
  renameSync(stageSync(file, data, mode), file);
  syncPath(path.dirname(file));
}
