// Background jobs' schedule (src/kernel/periodic.ts): a run at a time, ticks during a run skipped and
// reported, failures reported without ending the schedule, and stop() ending the ticks while idle()
// waits for the run in progress (graceful shutdown).
import { describe, expect, it } from 'vitest';
import { every } from '../../src/kernel/periodic.js';
import { gate } from '../helpers/gate.js';
import { until } from '../helpers/process.js';

describe('every', () => {
  it('never starts a run while the last one is going: those ticks are skipped and reported', async () => {
    const gates = [gate(), gate()];
    let runs = 0;
    let inFlight = 0;
    let most = 0;
    const skips: number[] = [];
    const job = every(
      5,
      async () => {
        const g = gates[runs++];
        inFlight += 1;
        most = Math.max(most, inFlight);
        await g?.done;
        inFlight -= 1;
      },
      { onError: (err) => expect.fail(String(err)), onSkip: (ms) => skips.push(ms) },
    );
    await until(() => skips.length >= 5, 20);
    expect(runs).toBe(1);
    expect(most).toBe(1);
    // Each report says how long the stuck run has gone on, growing.
    expect(skips.at(-1)!).toBeGreaterThan(skips[0]!);
    gates[0]!.release();
    await until(() => runs === 2, 20);
    expect(most).toBe(1);
    job.stop();
    gates[1]!.release();
    await job.idle();
  });

  it('reports a failed run and goes on with the next tick', async () => {
    const errors: unknown[] = [];
    let runs = 0;
    const job = every(
      5,
      async () => {
        runs += 1;
        if (runs === 1) throw new Error('smtp down');
      },
      { onError: (err) => errors.push(err) },
    );
    await until(() => runs >= 3, 20);
    job.stop();
    await job.idle();
    expect(errors).toHaveLength(1);
    expect((errors[0] as Error).message).toBe('smtp down');
  });

  it('stop() ends the ticks; idle() settles only when the run in progress has ended', async () => {
    const g = gate();
    let runs = 0;
    let ended = false;
    const job = every(
      5,
      async () => {
        runs += 1;
        await g.done;
        ended = true;
      },
      { onError: (err) => expect.fail(String(err)) },
    );
    job.stop();
    let idle = false;
    const waiting = job.idle().then(() => {
      idle = true;
    });
    await new Promise((r) => setTimeout(r, 30));
    expect(idle).toBe(false);
    g.release();
    await waiting;
    expect(ended).toBe(true);
    await new Promise((r) => setTimeout(r, 30));
    expect(runs).toBe(1);
  });
});
