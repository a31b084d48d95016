// Databases of a PostgreSQL server, made and dropped by tests: each test file's own (test/setup-
// database.ts), and the empty ones the first-start, fault and operator tests begin from. CREATE and
// DROP DATABASE cannot run inside a transaction, so each is one statement on a short connection.
import pg from 'pg';

/** `url` with its database replaced by `name`. */
function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Runs one statement on the server `url` points at (connected to that URL's database). */
export async function admin(url: string, statement: string, values?: unknown[]): Promise<pg.QueryResult> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await c.query(statement, values);
  } finally {
    await c.end();
  }
}

/** A new database on the server of `url` (empty, or a copy of `template`); returns its URL. */
export async function createDatabase(url: string, name: string, template?: string): Promise<string> {
  if (!/^[a-z0-9_]+$/.test(name) || (template && !/^[a-z0-9_]+$/.test(template))) {
    throw new Error(`not a plain database name: ${name} ${template ?? ''}`);
  }
  await admin(url, `create database ${name}${template ? ` template ${template}` : ''}`);
  return withDatabase(url, name);
}

/** Drops the database, closing whatever connections are still open to it. */
export async function dropDatabase(url: string, name: string): Promise<void> {
  await admin(url, `drop database if exists ${name} with (force)`);
}
