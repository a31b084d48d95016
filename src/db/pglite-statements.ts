// Prepared statements on the embedded PGlite (docs/performance.md). PGlite's `query` parses and plans its
// text again on every call, inside its WebAssembly, in six protocol exchanges (parse, describe, bind,
// describe, execute, sync): the gate's read took several times as long that way as a
// prepared statement (docs/performance.md). Here a text is parsed once under a name, its parameter types
// kept, and every later call only binds, runs and syncs, on the instance and inside its transactions, with
// PGlite's own locks, serializers, result parser and durability step (the same as its `query` does).
// A prepared statement outlives the transaction it was made in, as on PostgreSQL. The most recently
// used texts stay prepared; the others are closed outside any transaction.
import {
  type PGlite,
  type QueryOptions,
  type Results,
  type messages,
  parse,
  protocol,
} from '@electric-sql/pglite';

const { serialize } = protocol;
export const MAX_PREPARED = 200;

export type Query = (text: string, params?: unknown[], options?: QueryOptions) => Promise<Results>;
type Prepared = { name: string; types: number[] };

/** A PGlite transaction as its `transaction` callback receives it (what this runner needs of it). */
type Tx = { query: Query; closed: boolean };

export type PreparedStatements = {
  /** A statement outside any transaction, as `client.query` would run it. */
  query: Query;
  /** A statement inside `tx`, one of the client's transactions, as `tx.query` would run it. */
  queryIn(tx: Tx): Query;
  /** How many texts are prepared now. */
  prepared(): number;
};

/**
 * Runs statements on `client` through prepared statements (src/db/session.ts hands them to Drizzle).
 * Replaces nothing on the client: PGlite's own `query` is still there, and still used for what this
 * path does not handle (explicit parameter types, /dev/blob, a closed client).
 */
export function preparedStatements(client: PGlite): PreparedStatements {
  const statements = new Map<string, Prepared>(); // by text, least recently used first
  const closing: string[] = [];
  let made = 0;
  const exec = (message: Uint8Array) => client.execProtocolStream(message, { syncToFs: false });

  const prepare = async (text: string): Promise<Prepared> => {
    const known = statements.get(text);
    if (known) {
      statements.delete(text);
      statements.set(text, known);
      return known;
    }
    const name = `sitegate_pglite_${made++}`;
    await exec(serialize.parse({ name, text }));
    const described = await exec(serialize.describe({ type: 'S', name }));
    const params = described.find((m) => m.name === 'parameterDescription') as
      | messages.ParameterDescriptionMessage
      | undefined;
    const statement = { name, types: params?.dataTypeIDs ?? [] };
    statements.set(text, statement);
    if (statements.size > MAX_PREPARED) {
      const [oldest] = statements;
      statements.delete(oldest![0]);
      closing.push(oldest![1].name);
    }
    return statement;
  };

  // Closing is a protocol step of its own; inside a transaction block (maybe an aborted one) it waits.
  const closeEvicted = async () => {
    if (closing.length === 0 || client.isInTransaction()) return;
    for (const name of closing.splice(0)) {
      await exec(Buffer.concat([serialize.close({ type: 'S', name }), serialize.sync()]));
    }
  };

  const run = async (
    inTransaction: boolean,
    text: string,
    params: unknown[] = [],
    options?: QueryOptions,
  ) => {
    let results: messages.BackendMessage[];
    let synced = false;
    try {
      const statement = await prepare(text);
      const values = params.map((value, i) => {
        if (value === null || value === undefined) return null;
        const type = statement.types[i]!;
        const serializer = options?.serializers?.[type] ?? client.serializers[type];
        return serializer ? serializer(value) : String(value);
      });
      // Bind, describe, execute and sync in one buffer: one crossing into the WebAssembly instead of
      // four (a large share of a statement's cost). After an error the backend skips to the sync, as it would
      // across four calls.
      synced = true;
      results = await exec(
        Buffer.concat([
          serialize.bind({ statement: statement.name, values }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        ]),
      );
    } catch (err) {
      // As PGlite's own query does: the error says which statement and values it came from.
      if (err instanceof Error && 'code' in err)
        Object.assign(err, { query: text, params, queryOptions: options });
      // A failed parse (a new text) leaves the backend waiting for its sync.
      if (!synced) await exec(serialize.sync());
      throw err;
    }
    if (!inTransaction) {
      await closeEvicted();
      await client.syncToFs();
    }
    return parse.parseResults(results, client.parsers, options)[0]!;
  };

  // Options PGlite's query handles that this path does not (explicit parameter types, /dev/blob).
  const plain = (options?: QueryOptions) => Boolean(options?.paramTypes || options?.blob);

  const own = client.query.bind(client) as Query;
  return {
    query: (text, params, options) =>
      client.closed || plain(options)
        ? own(text, params, options)
        : client._runExclusiveTransaction(() => client.runExclusive(() => run(false, text, params, options))),
    queryIn: (tx) => {
      const inTx = tx.query.bind(tx) as Query;
      return (text, params, options) =>
        tx.closed || plain(options)
          ? inTx(text, params, options)
          : client.runExclusive(() => run(true, text, params, options));
    },
    prepared: () => statements.size,
  };
}
