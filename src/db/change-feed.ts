// In-process caches kept honest by the database itself: triggers (migration 0001_change_feed)
// NOTIFY `sitegate_change` with a table name whenever a statement changes a table the caches read,
// and the process drops what depended on that table. A fill started before an invalidation is
// discarded (generation check), so a cache never keeps a row older than the last committed change.
// Only the embedded PGlite goes live: it is one process and delivers a notification before the
// committing statement resolves. On PostgreSQL the feed is never live, because another process's
// commit would arrive late and refusals must hold at once; there the caches are keyed by the
// caller's workspace version instead (src/db/versions.ts), which the edge reads on every request,
// and the triggers notify nothing (only a session with sitegate.change_feed=on does: migration 0008).
export const CHANGE_CHANNEL = 'sitegate_change';

export type ChangeFeed = {
  /** True while notifications are being received; caches are bypassed otherwise. */
  readonly live: boolean;
  subscribe(fn: (table: string) => void): void;
  /** Tell local subscribers directly (tests, and writes done outside the database). */
  emit(table: string): void;
};

export function changeFeed(): ChangeFeed & { setLive(v: boolean): void } {
  const subs: Array<(t: string) => void> = [];
  let live = false;
  return {
    get live() {
      return live;
    },
    setLive(v: boolean) {
      live = v;
      // Anything cached while we may have missed notifications is suspect.
      for (const s of subs) s('*');
    },
    subscribe(fn) {
      subs.push(fn);
    },
    emit(table) {
      for (const s of subs) s(table);
    },
  };
}

/** A map whose entries are dropped when any table it depends on changes. */
export class FeedCache<V> {
  private map = new Map<string, V>();
  private gen = 0;
  constructor(
    private readonly feed: ChangeFeed,
    tables: readonly string[],
    private readonly max = 10_000,
    /** Only values that pass are kept (e.g. never cache "no such token"). */
    private readonly keep: (v: V) => boolean = () => true,
  ) {
    const deps = new Set(tables);
    feed.subscribe((t) => {
      if (t === '*' || deps.has(t)) {
        this.gen += 1;
        this.map.clear();
      }
    });
  }

  /**
   * The cached value, or `load()`'s. Without the live feed a value is cached only under a workspace
   * `version` the caller read from the database for this request (PostgreSQL): a change bumps the
   * version in its own transaction, so an entry of an older version is never found again.
   */
  async get(key0: string, load: () => Promise<V>, version?: string): Promise<V> {
    if (!this.feed.live && version === undefined) return load();
    const key = this.feed.live ? key0 : `${version}\u0000${key0}`;
    const hit = this.map.get(key);
    if (hit !== undefined) return hit;
    const gen = this.gen;
    const value = await load();
    if (gen === this.gen && (this.feed.live || version !== undefined) && this.keep(value)) {
      if (this.map.size >= this.max) this.map.clear();
      this.map.set(key, value);
    }
    return value;
  }
}
