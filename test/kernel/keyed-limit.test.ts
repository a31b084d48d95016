// The per-key admission the write path uses (src/kernel/keyed-limit.ts): at most `limit` tasks of a
// key at once, the rest in arrival order, keys independent, and a failed task gives its slot up.
import { describe, expect, it } from 'vitest';
import { keyedLimit } from '../../src/kernel/keyed-limit.js';
import { gate } from '../helpers/gate.js';

const turn = () => new Promise<void>((r) => setImmediate(r));

describe('keyedLimit', () => {
  it('runs at most `limit` tasks of one key at once and starts the others in arrival order', async () => {
    const run = keyedLimit(2);
    const started: number[] = [];
    const gates = [0, 1, 2, 3, 4].map(() => gate());
    const all = gates.map((g, i) =>
      run('w1', async () => {
        started.push(i);
        await g.done;
        return i;
      }),
    );
    await turn();
    expect(started).toEqual([0, 1]);
    gates[1]!.release();
    await turn();
    expect(started).toEqual([0, 1, 2]);
    gates[0]!.release();
    gates[2]!.release();
    await turn();
    expect(started).toEqual([0, 1, 2, 3, 4]);
    gates[3]!.release();
    gates[4]!.release();
    expect(await Promise.all(all)).toEqual([0, 1, 2, 3, 4]);
  });

  it('keeps keys apart: a full key does not hold another back', async () => {
    const run = keyedLimit(1);
    const held = gate();
    const first = run('w1', () => held.done);
    const queued = run('w1', async () => 'w1 second');
    expect(await run('w2', async () => 'w2 ran')).toBe('w2 ran');
    held.release();
    await first;
    expect(await queued).toBe('w1 second');
  });

  it('hands the slot on when a task fails, and the failure reaches its caller', async () => {
    const run = keyedLimit(1);
    const failing = run('w1', async () => {
      throw new Error('refused');
    });
    const next = run('w1', async () => 'next ran');
    await expect(failing).rejects.toThrow('refused');
    expect(await next).toBe('next ran');
  });

  it('refuses a limit below one', () => {
    expect(() => keyedLimit(0)).toThrow(RangeError);
  });
});
