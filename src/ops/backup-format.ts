// The backup folder's format, and the checks `sitegate restore` makes on one before it writes anything.
// A backup folder is input: it may have been copied from another machine or altered, so no name in it
// may steer a write. The manifest may name only the files a backup holds (`pgdata.tgz` and the known
// secret files); every file read must be a regular file directly in the folder, never a symbolic link
// (which would read, and so restore, a file from anywhere); the dump must match its SHA-256 and hold
// only files and folders under the database folder; every blob must be named by its own SHA-256.
import { createHash } from 'node:crypto';
import { existsSync, lstatSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { z } from 'zod';
import { Refusal } from '../kernel/errors.js';

export const BACKUP_FORMAT = 'sitegate-backup/1';
export const DUMP_FILE = 'pgdata.tgz';
export const SECRET_FILES = ['delegation.key', 'demo-tokens.json'];
export const HEX64 = /^[0-9a-f]{64}$/;
/** A manifest is a few hundred bytes; anything far larger is not one. */
const MANIFEST_MAX_BYTES = 64 * 1024;

export const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

const ManifestSchema = z.object({
  format: z.string().max(100),
  createdAt: z.string().max(100),
  schema: z.string().max(200).nullable(),
  database: z.object({
    file: z.string().max(4096),
    sha256: z.string().regex(HEX64),
    bytes: z.number().int().nonnegative(),
  }),
  blobs: z.number().int().nonnegative(),
  secrets: z.array(z.string().max(4096)).max(16),
});
export type Manifest = z.infer<typeof ManifestSchema> & { database: { file: typeof DUMP_FILE } };

const altered = (what: string) =>
  new Refusal('invalid_input', `${what}: the backup was altered or damaged. Nothing was restored.`);

/** Why a name the manifest gives is not a file of this backup folder, or null when it is. */
function namedFileProblem(root: string, name: string, allowed: readonly string[]): string | null {
  if (name.includes('\u0000')) return 'holds a NUL character';
  if (path.isAbsolute(name) || /^[A-Za-z]:|^[\\/]/.test(name)) return 'is an absolute path';
  if (name.split(/[\\/]/).includes('..')) return 'leads out of the backup folder';
  const rel = path.relative(root, path.resolve(root, name));
  if (rel.startsWith('..') || path.isAbsolute(rel)) return 'leads out of the backup folder';
  if (!allowed.includes(name)) return 'is not a file a Sitegate backup holds';
  return null;
}

/**
 * Refuses a symbolic link at `p` and, when `kind` is given, anything but a regular file or a folder;
 * an absent path passes.
 */
export function refuseLink(p: string, where: string, kind?: 'file' | 'folder'): void {
  if (!existsSync(p) && !isLink(p)) return;
  const st = lstatSync(p);
  if (st.isSymbolicLink()) throw altered(`${where} holds a symbolic link at ${path.basename(p)}`);
  if (kind && (kind === 'file' ? !st.isFile() : !st.isDirectory()))
    throw altered(`${where} holds ${path.basename(p)}, which is not a ${kind}`);
}

function isLink(p: string): boolean {
  try {
    return lstatSync(p).isSymbolicLink();
  } catch {
    return false;
  }
}

/**
 * The entries of a PGlite data-folder dump (ustar, as PGlite writes it: regular files and folders,
 * named from the data folder's root). Refuses any other kind of entry (links, devices, extended
 * headers) and any name that could leave the folder.
 */
function checkDumpEntries(gz: Uint8Array): number {
  let tar: Buffer;
  try {
    tar = gunzipSync(gz);
  } catch {
    throw altered('The database dump is not a gzip archive');
  }
  const text = (h: Buffer, at: number, len: number) => {
    const field = h.subarray(at, at + len);
    const end = field.indexOf(0);
    return field.subarray(0, end < 0 ? len : end).toString('utf8');
  };
  let entries = 0;
  for (let at = 0; at + 512 <= tar.length; ) {
    const h = tar.subarray(at, at + 512);
    if (h.every((b) => b === 0)) return entries;
    const prefix = text(h, 345, 155);
    const name = prefix ? `${prefix}/${text(h, 0, 100)}` : text(h, 0, 100);
    const type = String.fromCharCode(h[156]!);
    const size = Number.parseInt(text(h, 124, 12).trim() || '0', 8);
    if (!Number.isSafeInteger(size) || size < 0) throw altered('The database dump has a damaged entry');
    if (type !== '0' && type !== '\u0000' && type !== '5')
      throw altered(
        `The database dump holds ${JSON.stringify(name).slice(0, 120)}, which is not a file or folder`,
      );
    if (name.split('/').includes('..') || name.includes('\\'))
      throw altered(
        `The database dump names ${JSON.stringify(name).slice(0, 120)}, outside the database folder`,
      );
    entries += 1;
    at += 512 + Math.ceil(size / 512) * 512;
  }
  throw altered('The database dump ends early');
}

/** Every blob file of the backup: regular files named by their own SHA-256, in two-letter shards. */
function checkBlobs(dir: string): number {
  if (!existsSync(dir) && !isLink(dir)) return 0;
  refuseLink(dir, 'The backup', 'folder');
  let n = 0;
  for (const shard of readdirSync(dir)) {
    if (!/^[0-9a-f]{2}$/.test(shard)) continue;
    refuseLink(path.join(dir, shard), 'The backup', 'folder');
    for (const f of readdirSync(path.join(dir, shard))) {
      if (!HEX64.test(f)) continue;
      const p = path.join(dir, shard, f);
      refuseLink(p, 'The backup', 'file');
      if (!f.startsWith(shard) || sha256(readFileSync(p)) !== f)
        throw altered(`Blob ${f} does not match its name`);
      n++;
    }
  }
  return n;
}

/** Reads and checks a backup folder; throws a Refusal naming the first problem, having written nothing. */
export function checkBackup(src: string): {
  src: string;
  manifest: Manifest;
  bytes: Uint8Array<ArrayBuffer>;
} {
  const manifestPath = path.join(src, 'manifest.json');
  if (!existsSync(manifestPath) && !isLink(manifestPath))
    throw new Refusal('invalid_input', `${src} is not a Sitegate backup (it has no manifest.json).`);
  refuseLink(manifestPath, 'The backup', 'file');
  if (lstatSync(manifestPath).size > MANIFEST_MAX_BYTES) throw altered('manifest.json is far too large');
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(manifestPath, 'utf8'));
  } catch {
    throw altered('manifest.json is not JSON');
  }
  const parsed = ManifestSchema.safeParse(raw);
  if (!parsed.success || parsed.data.format !== BACKUP_FORMAT)
    throw new Refusal('invalid_input', `${src} is not a Sitegate backup (its manifest is not one).`);
  const m = parsed.data;
  const named: Array<[string, readonly string[]]> = [
    [m.database.file, [DUMP_FILE]],
    ...m.secrets.map((f): [string, readonly string[]] => [f, SECRET_FILES]),
  ];
  for (const [name, allowed] of named) {
    const problem = namedFileProblem(src, name, allowed);
    if (problem) throw altered(`The manifest names ${JSON.stringify(name).slice(0, 200)}, which ${problem}`);
    refuseLink(path.join(src, name), 'The backup', 'file');
  }
  if (new Set(m.secrets).size !== m.secrets.length) throw altered('The manifest names a secret file twice');
  if (lstatSync(path.join(src, DUMP_FILE)).size !== m.database.bytes)
    throw altered('The database dump is not the size its manifest gives');
  const bytes = new Uint8Array(readFileSync(path.join(src, DUMP_FILE)));
  if (sha256(bytes) !== m.database.sha256)
    throw new Refusal('conflict', 'The database dump does not match its manifest (damaged or altered).');
  checkDumpEntries(bytes);
  if (checkBlobs(path.join(src, 'blobs')) !== m.blobs)
    throw altered('The blob files differ from the manifest');
  return { src, manifest: m as Manifest, bytes };
}
