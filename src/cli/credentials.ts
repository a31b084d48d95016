// Where the CLI keeps what pairing gave it: $XDG_CONFIG_HOME/sitegate/credentials.json (or
// ~/.config/sitegate/credentials.json), mode 0600, one entry per server, plus the current one.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { replaceFileDurablySync } from '../kernel/durable-files.js';

export type Credential = {
  url: string;
  token: string;
  scopes: string[];
  reach: string;
  clientName: string;
  pairedAt: string;
};
type File = { current?: string; servers: Record<string, Credential> };

export function credentialsPath(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CONFIG_HOME || path.join(env.HOME || homedir(), '.config');
  return path.join(base, 'sitegate', 'credentials.json');
}

function load(): File {
  const file = credentialsPath();
  if (!existsSync(file)) return { servers: {} };
  let data: Partial<File> | null = null;
  try {
    data = JSON.parse(readFileSync(file, 'utf8')) as Partial<File> | null;
  } catch {}
  // Refused, not overwritten: the user may want what is in it. Saves replace the file whole, so only
  // an edit by hand or another program leaves it like this.
  if (typeof data?.servers !== 'object' || data.servers === null) {
    throw new Error(`${file} is not a Sitegate credentials file. Remove it, then run sitegate pair again.`);
  }
  return data as File;
}

function save(data: File): void {
  const file = credentialsPath();
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  // Whole or not at all, and on disk: a crash or power cut mid-write never leaves a truncated file
  // that every later command would fail to parse. The new file is made 0600, whatever the old had.
  replaceFileDurablySync(file, `${JSON.stringify(data, null, 2)}\n`, 0o600);
}

/** Throws, as every read does, when the file is there but damaged: before pairing asks the owner. */
export function checkCredentialsFile(): void {
  load();
}

export const normaliseUrl = (url: string) => url.replace(/\/+$/, '');

export function storeCredential(c: Credential): void {
  const data = load();
  data.servers[c.url] = c;
  data.current = c.url;
  save(data);
}

/** The credential for this server (or the current one), or null when not paired. */
export function readCredential(url?: string): Credential | null {
  const data = load();
  const key = url ? normaliseUrl(url) : data.current;
  return (key && data.servers[key]) || null;
}

export function forgetCredential(url?: string): Credential | null {
  const data = load();
  const key = url ? normaliseUrl(url) : data.current;
  const c = (key && data.servers[key]) || null;
  if (key) delete data.servers[key];
  if (data.current === key) data.current = Object.keys(data.servers)[0];
  save(data);
  return c;
}
