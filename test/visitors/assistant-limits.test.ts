// The allowance of visitors' assistants per sender (src/domain/visitor-agent/visits.ts): keyed like the
// forms' limits, by a salted HMAC of the sender's IPv4 address or IPv6 /64, so one host cannot get a
// fresh allowance from each address of its /64, and the address itself never reaches the limiter.
import { describe, expect, it } from 'vitest';
import type { VisitorKeys } from '../../src/domain/analytics/visitor-keys.js';
import { requestAllowance, takeRead } from '../../src/domain/visitor-agent/visits.js';
import { type Window, createRateLimits } from '../../src/limits/rate-limits.js';

const keys: VisitorKeys = { formKey: async () => 'form-key', saltFor: async () => 'salt-of-the-day' };

/** The real limiter (in memory), wrapped to see which keys it is handed. */
function limits(readsPerMinute: number) {
  const real = createRateLimits({ perConnection: 100, perWorkspace: 100 });
  const seen: string[] = [];
  return {
    seen,
    perAddress: 5,
    perWebsite: 30,
    readsPerMinute,
    take(w: Window, key: string) {
      seen.push(key);
      return real.tryWindow(w, key);
    },
  };
}

describe("assistants' read allowance", () => {
  const now = new Date('2026-11-27T03:00:00Z');

  it('counts an IPv6 /64 as one sender and never hands the limiter an address', async () => {
    const l = limits(2);
    expect(await takeRead(l, keys, '2001:db8:1:2::1', now)).toBe(0);
    expect(await takeRead(l, keys, '2001:db8:1:2:ffff:ffff:ffff:9', now)).toBe(0);
    expect(await takeRead(l, keys, '2001:db8:1:2::abcd', now)).toBeGreaterThan(0);
    // Another /64 and an IPv4 sender have their own allowance.
    expect(await takeRead(l, keys, '2001:db8:1:3::1', now)).toBe(0);
    expect(await takeRead(l, keys, '192.0.2.7', now)).toBe(0);
    for (const k of l.seen) expect(k).not.toMatch(/2001|db8|192\.0/);
  });

  it("a request's point pays for its first call; every further call of a batch takes its own", async () => {
    const l = limits(3);
    const one = requestAllowance(l, keys, '192.0.2.8', now);
    expect(await one.admit()).toBe(0);
    // The first call is the request's point; the next two take the allowance's last two.
    expect(await Promise.all([one.take(), one.take(), one.take()])).toEqual([0, 0, 0]);
    expect(l.seen).toHaveLength(3);
    expect(await one.take()).toBeGreaterThan(0);
    // The allowance is spent: the next request is refused at its edge.
    expect(await requestAllowance(l, keys, '192.0.2.8', now).admit()).toBeGreaterThan(0);
    // A request refused at the edge has paid for nothing.
    const refused = requestAllowance(l, keys, '192.0.2.8', now);
    expect(await refused.admit()).toBeGreaterThan(0);
    expect(await refused.take()).toBeGreaterThan(0);
  });
});
