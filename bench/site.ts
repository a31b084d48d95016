// Benchmark of the published site: what counting a page view costs. Three legs, driven
// one request at a time over real HTTP in the same run: a page that is not counted (a crawler's user
// agent: the same rendering path without the write), the same page counted (a browser), and a whole
// contact-form round (GET the page, POST the form: spam checks, lead, analytics event, outbox row).
// Runs on in-memory PGlite, or on PostgreSQL when DATABASE_URL is set.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { Agent, fetch } from 'undici';
import { loadConfig } from '../src/config.js';
import { openDatabase } from '../src/db/client.js';
import { seedDemo } from '../src/demo/seed.js';
import { createSitegate } from '../src/runtime.js';
import { freePort } from '../scripts/free-port.js';

const N = Number(process.env.BENCH_REQUESTS ?? 400);
const BROWSER =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
const BOT = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};

export async function bench(): Promise<void> {
  const config = loadConfig({
    PORT: String(await freePort()),
    HOST: '127.0.0.1',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'sitegate-bench-')),
    LOG_LEVEL: 'silent',
    FORM_LIMIT_PER_ADDRESS: '1000000',
    FORM_LIMIT_PER_WEBSITE: '1000000',
  });
  const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, memory: true });
  // Each reading of the clock is 4 s after the last, so every form looks filled in at human speed.
  let t = Date.now();
  const clock = () => {
    t += 4_000;
    return new Date(t);
  };
  const sg = await createSitegate(config, { database, log: pino({ level: 'silent' }), clock });
  const { url } = await sg.listen();
  const demo = await seedDemo(database.db, { tag: `bench${Date.now().toString(36)}` });
  const site = `${url}/sites/${demo.websites.main}`;
  const dispatcher = new Agent({ connections: 1 });
  const get = async (p: string, ua: string) => {
    const r = await fetch(site + p, { dispatcher, headers: { 'user-agent': ua } });
    const html = await r.text();
    if (r.status !== 200) throw new Error(`${p}: ${r.status}`);
    return html;
  };
  const timed = async (fn: () => Promise<unknown>) => {
    const t0 = performance.now();
    await fn();
    return performance.now() - t0;
  };
  const legs = { uncounted: [] as number[], counted: [] as number[], form: [] as number[] };
  for (let i = 0; i < 50; i++) await get('/about', BOT); // warm-up
  // Alternate the legs so the machine's noise falls on all of them alike.
  for (let i = 0; i < N; i++) {
    legs.uncounted.push(await timed(() => get('/about', BOT)));
    legs.counted.push(await timed(() => get('/about', BROWSER)));
    if (i % 4 === 0) {
      legs.form.push(
        await timed(async () => {
          const html = await get('/contact', BROWSER);
          const hidden = Object.fromEntries(
            [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
              m[1]!,
              m[2]!,
            ]),
          );
          const action = /<form class="site-form" [^>]*action="([^"]+)"/.exec(html)![1]!;
          const r = await fetch(url + action, {
            dispatcher,
            method: 'POST',
            redirect: 'manual',
            headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': BROWSER },
            body: new URLSearchParams({
              ...hidden,
              website: '',
              name: 'Bench',
              email: 'b@example.com',
              message: `Hello ${i}`,
            }).toString(),
          });
          await r.text();
          if (r.status !== 303) throw new Error(`form: ${r.status}`);
        }),
      );
    }
  }
  const line = (name: string, xs: number[]) =>
    `${name.padEnd(34)} n=${String(xs.length).padStart(4)}  p50 ${pct(xs, 50).toFixed(2)} ms  p99 ${pct(xs, 99).toFixed(2)} ms`;
  console.log(`database: ${database.kind}`);
  console.log(line('page, not counted (crawler)', legs.uncounted));
  console.log(line('page, counted (browser)', legs.counted));
  console.log(line('contact form (GET + POST)', legs.form));
  console.log(
    `counted / not counted, p50: ${(pct(legs.counted, 50) / pct(legs.uncounted, 50)).toFixed(2)}x  p99: ${(pct(legs.counted, 99) / pct(legs.uncounted, 99)).toFixed(2)}x`,
  );
  await dispatcher.close();
  await sg.close();
  await database.close();
}
