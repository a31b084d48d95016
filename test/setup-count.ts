// With SITEGATE_ASSERTION_COUNT set to a file, each test file appends how many assertions its tests
// made (one line per file), so a CI pass can say how many it ran (.ci/report.mjs), before and after a
// change to the suite's layout. Off otherwise.
import { appendFileSync } from 'node:fs';
import { afterAll, afterEach, expect } from 'vitest';

const out = process.env.SITEGATE_ASSERTION_COUNT;
if (out) {
  let made = 0;
  afterEach(() => {
    made += expect.getState().assertionCalls;
  });
  afterAll(() => {
    appendFileSync(out, `${made}\n`);
  });
}
