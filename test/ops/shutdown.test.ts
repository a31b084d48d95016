// Graceful shutdown: a real `sitegate serve` child gets SIGTERM while 20 tool calls
// are in flight (each waiting on a local image provider that answers only when the test lets it).
// It stops accepting connections at once, answers all 20, writes their Activity, and exits 0.
import { type IncomingMessage, type ServerResponse, createServer } from 'node:http';
import { mkdtempSync, readFileSync } from 'node:fs';
import { withMigratedDatabase } from '../reliability/harness.js';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/client.js';
import { activity, companies } from '../../src/db/schema.js';
import { until, sitegate } from '../helpers/process.js';
import { freePort, postMcp } from '../helpers/server.js';

const held: ServerResponse[] = [];
const provider = createServer((req: IncomingMessage, res: ServerResponse) => {
  req.resume();
  req.on('end', () => held.push(res));
});
afterAll(() => new Promise<void>((r) => provider.close(() => r())));

it('SIGTERM during 20 in-flight calls: no new connections, all 20 answered, Activity complete, exit 0', async () => {
  const png = await sharp({ create: { width: 32, height: 32, channels: 3, background: '#8a4b2a' } })
    .png()
    .toBuffer();
  await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r));
  const providerUrl = `http://127.0.0.1:${(provider.address() as { port: number }).port}/generate`;
  const dataDir = withMigratedDatabase(mkdtempSync(path.join(tmpdir(), 'sitegate-shutdown-')));
  const port = await freePort();
  const demoOut = path.join(dataDir, 'demo-out.json');
  // Embedded database on purpose: the child owns DATA_DIR; the test opens it after the exit.
  const server = sitegate(['serve', '--demo', '--demo-out', demoOut], {
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      IMAGE_PROVIDER_URL: providerUrl,
      SHUTDOWN_TIMEOUT_MS: '30000',
      LOG_LEVEL: 'info',
    },
  });
  const base = `http://127.0.0.1:${port}`;
  await until(
    async () => (await fetch(`${base}/readyz`).catch(() => null))?.status === 200,
    1800,
    () => `${server.out()}\n${server.err()}`,
  );
  const demo = JSON.parse(readFileSync(demoOut, 'utf8')) as {
    tokens: { all: string };
    websites: { main: string };
  };

  const calls = Array.from({ length: 20 }, (_, i) =>
    postMcp(`${base}/api/mcp`, demo.tokens.all, {
      jsonrpc: '2.0',
      id: i,
      method: 'tools/call',
      params: { name: 'generate_image', arguments: { websiteId: demo.websites.main, prompt: `Loaf ${i}` } },
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as any })),
  );
  // All 20 have reached the provider: they are in flight inside the server.
  await until(() => held.length === 20, 600);

  server.child.kill('SIGTERM');
  // It stops accepting: a new connection is refused while the 20 are still waiting.
  await until(
    async () =>
      (await fetch(`${base}/healthz`).then(
        () => false,
        () => true,
      )) || null,
    100,
  );
  expect(held.length).toBe(20);

  for (const res of held) res.writeHead(200, { 'content-type': 'image/png' }).end(png);
  const answers = await Promise.all(calls);
  expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
  expect(answers.map((a) => a.body.result.structuredContent.ok)).toEqual(Array(20).fill(true));

  const exit = await server.done;
  expect(exit.code, exit.err).toBe(0);

  // Every answered call has its Activity line, with the credits it spent.
  const database = await openDatabase({ dataDir });
  try {
    const lines = await database.db
      .select()
      .from(activity)
      .where(and(eq(activity.tool, 'generate_image'), eq(activity.outcome, 'allowed')));
    expect(lines).toHaveLength(20);
    expect(lines.reduce((n, l) => n + l.creditsSpent, 0)).toBe(20);
    const [company] = await database.db.select().from(companies).where(eq(companies.id, lines[0]!.companyId));
    expect(company!.credits).toBe(40 - 20);
  } finally {
    await database.close();
  }
}, 180_000);
