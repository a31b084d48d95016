// What an error may say in a log line (R-SEC-3: "no log line may carry request values that
// can hold personal data"). A failed query's error carries its SQL parameters (a customer's note, an
// email) in its message, its stack's first line and its `params`; the database's own error carries
// values in `detail` and often in its message. A logged error keeps its type, the SQL text (values
// are always parameters, never inlined), the database's error code and constraint, and the stack
// frames: enough to find the fault, nothing the caller sent.

type Loose = Error & Record<string, unknown>;

const PARAMS = /\nparams:[\s\S]*$/;
/** Quoted fragments of a message ("…" or '…'): where drivers and parsers echo the value they saw. */
const QUOTED = /"[^"\n]*"|'[^'\n]*'/g;

function scrub(message: string): string {
  return message.replace(PARAMS, '').replace(QUOTED, '"…"').slice(0, 1000);
}

/** The database's side of an error: only its code and the names of what it refers to. */
function dbCause(cause: unknown): Record<string, unknown> | undefined {
  if (!cause || typeof cause !== 'object') return undefined;
  const c = cause as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const k of ['code', 'constraint', 'table', 'column', 'routine', 'severity']) {
    if (typeof c[k] === 'string') out[k] = c[k];
  }
  out.type = (cause as Error).name ?? 'Error';
  return out;
}

/** pino `err` serializer: type, scrubbed message, frames, database code; never values. */
export function safeError(err: unknown): Record<string, unknown> {
  if (!(err instanceof Error)) return { type: typeof err };
  const e = err as Loose;
  const type = e.name || e.constructor?.name || 'Error';
  const frames = (e.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l));
  const message = scrub(e.message ?? '');
  // A failed query keeps its SQL (parameterised) but never its params.
  const query = typeof e.query === 'string' ? e.query.slice(0, 1000) : undefined;
  return {
    type,
    message,
    ...(query ? { query } : {}),
    ...(typeof e.code === 'string' ? { code: e.code } : {}),
    ...(e.cause ? { cause: dbCause(e.cause) } : {}),
    stack: [`${type}: ${message}`, ...frames].join('\n'),
  };
}
