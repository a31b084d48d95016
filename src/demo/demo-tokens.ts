// Where the demo's tokens are kept between starts. Tokens are stored only as a SHA-256 and a display
// prefix (docs/authentication.md), the demo's too, so the database never holds them: the start that
// seeds the demo writes them to DATA_DIR/demo-tokens.json (mode 0600, synced, before the seed commits)
// and later starts of a process with the same DATA_DIR print them again from there. DATA_DIR is the
// process's own folder on both backends (it holds the delegation key too); a process elsewhere on the
// same PostgreSQL has no such file and prints how to get a token instead. A file whose tokens no
// longer name a connection in this database (the database was replaced) is ignored.
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { inArray } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { connections } from '../db/schema.js';
import { replaceFileDurablySync } from '../kernel/durable-files.js';
import { sha256Hex } from '../kernel/tokens.js';

export const DEMO_TOKENS_FILE = 'demo-tokens.json';

export type DemoTokens = { default: string; all: string; workspace: string };

const MAX_FILE_BYTES = 4_096;

/** Writes the tokens the seeding start made; durable before the seed commits. */
export function keepDemoTokens(dataDir: string, tokens: DemoTokens): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  replaceFileDurablySync(
    path.join(dataDir, DEMO_TOKENS_FILE),
    `${JSON.stringify({ tokens }, null, 2)}\n`,
    0o600,
  );
}

/** The kept tokens when this DATA_DIR has them and each still names a connection here; else null. */
export async function keptDemoTokens(db: Db, dataDir: string): Promise<DemoTokens | null> {
  let tokens: DemoTokens;
  try {
    const text = readFileSync(path.join(dataDir, DEMO_TOKENS_FILE), 'utf8');
    if (text.length > MAX_FILE_BYTES) return null;
    tokens = (JSON.parse(text) as { tokens: DemoTokens }).tokens;
  } catch {
    return null;
  }
  const values = [tokens?.default, tokens?.all, tokens?.workspace];
  if (!values.every((t) => typeof t === 'string' && t.length > 0 && t.length < 200)) return null;
  const hashes = values.map((t) => sha256Hex(t as string));
  const found = await db
    .select({ hash: connections.tokenHash })
    .from(connections)
    .where(inArray(connections.tokenHash, hashes));
  return found.length === hashes.length ? tokens : null;
}
