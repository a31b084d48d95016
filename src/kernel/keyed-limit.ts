// At most `limit` tasks of one key run at once; the others wait in arrival order without holding
// anything. Used to admit a workspace's single-transaction writes (src/mcp/call.ts, issue 17): on
// PostgreSQL its content and access writes take the same rows (its cache-version row, and for section
// edits its website) until they commit, so writes past the first two only wait at the database, each
// holding a pooled connection that reads and other workspaces' calls then cannot have.

export type KeyedLimit = <T>(key: string, task: () => Promise<T>) => Promise<T>;

export function keyedLimit(limit: number): KeyedLimit {
  if (!(limit >= 1)) throw new RangeError('limit must be at least 1');
  const lanes = new Map<string, { running: number; waiting: Array<() => void> }>();
  return async (key, task) => {
    let lane = lanes.get(key);
    if (!lane) {
      lane = { running: 0, waiting: [] };
      lanes.set(key, lane);
    }
    const own = lane;
    if (own.running < limit) own.running += 1;
    else await new Promise<void>((resolve) => own.waiting.push(resolve)); // the slot is handed over
    try {
      return await task();
    } finally {
      const next = own.waiting.shift();
      if (next) next();
      else {
        own.running -= 1;
        if (own.running === 0) lanes.delete(key);
      }
    }
  };
}
