// Periodic work that never overlaps itself. A tick that finds the previous run still going is skipped:
// a sweep stuck on a slow mail server or a locked table must not start a second, third… copy of
// itself every interval, each holding a connection and taking more rows to wait on.

export type Periodic = {
  /** No more ticks; a run in progress goes on (await `idle()` for it). */
  stop(): void;
  /** Settles when no run is in progress. */
  idle(): Promise<void>;
};

export type PeriodicHooks = {
  /** A run threw or rejected; the schedule goes on. */
  onError(err: unknown): void;
  /** A tick was skipped because the previous run had not ended; `ranForMs` is how long it has run. */
  onSkip?(ranForMs: number): void;
};

/** Runs `run` now and then every `everyMs`, one run at a time. The timer does not keep Node alive. */
export function every(everyMs: number, run: () => Promise<unknown>, hooks: PeriodicHooks): Periodic {
  let current: Promise<void> | null = null;
  let startedAt = 0;
  let stopped = false;
  const tick = () => {
    if (stopped) return;
    if (current) {
      hooks.onSkip?.(performance.now() - startedAt);
      return;
    }
    startedAt = performance.now();
    const p: Promise<void> = Promise.resolve()
      .then(run)
      .then(
        () => undefined,
        (err: unknown) => hooks.onError(err),
      )
      .finally(() => {
        if (current === p) current = null;
      });
    current = p;
  };
  tick();
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return {
    stop() {
      stopped = true;
      clearInterval(timer);
    },
    idle: async () => {
      await current;
    },
  };
}
