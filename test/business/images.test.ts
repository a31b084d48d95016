import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activity, assets, creditReservations, pages, sections } from '../../src/db/schema.js';
import { RESERVATION_LEASE_MS, settleReservations } from '../../src/domain/library/generate.js';
import { brandColours, composeSvg } from '../../src/domain/library/brand-image.js';
import type { Workspace } from '../helpers/factory.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { company, setCompany, tokenFor } from './fixtures.js';

// A local HTTP server that plays the image provider: ok, outage, slow (past the timeout), or garbage.
type Mode = 'ok' | 'outage' | 'slow' | 'garbage' | 'huge' | 'hook';
const provider = {
  mode: 'ok' as Mode,
  calls: 0,
  bodies: [] as Array<Record<string, unknown>>,
  /** mode 'hook': runs while the call waits for its image, then the image is sent. */
  hook: async () => {},
};
let providerServer: Server;
const pendingSlow = new Set<ServerResponse>();
let png: Buffer;

async function startProvider(): Promise<string> {
  png = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#336699' } })
    .png()
    .toBuffer();
  providerServer = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (c) => {
      raw += c;
    });
    req.on('end', () => {
      provider.calls++;
      provider.bodies.push(JSON.parse(raw));
      if (provider.mode === 'outage') return void res.writeHead(503).end('down');
      if (provider.mode === 'garbage')
        return void res.writeHead(200, { 'content-type': 'image/png' }).end('nope');
      if (provider.mode === 'huge') {
        // 11 MB, chunked (no content-length): the client must stop reading past its 10 MB cap.
        res.writeHead(200, { 'content-type': 'image/png' });
        for (let i = 0; i < 11; i++) res.write(Buffer.alloc(1024 * 1024, i));
        return void res.end();
      }
      if (provider.mode === 'slow') return void pendingSlow.add(res); // answered only at shutdown
      if (provider.mode === 'hook')
        return void provider.hook().then(() => res.writeHead(200, { 'content-type': 'image/png' }).end(png));
      res.writeHead(200, { 'content-type': 'image/png' }).end(png);
    });
  });
  await new Promise<void>((r) => providerServer.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(providerServer.address() as AddressInfo).port}/generate`;
}

let local: TestServer;
let remote: TestServer;
let patient: TestServer;
// A day behind: the settling job is global. Run at this clock past the lease, it reaches only
// reservations older than a day, never another server's live generate_image call (at real time +
// 11 min it refunded them all, other files' too while PostgreSQL was shared by every file).
const patientNow = () => new Date(Date.now() - 24 * 3_600_000);
beforeAll(async () => {
  const url = await startProvider();
  local = await startTestServer({ seed: false });
  remote = await startTestServer({
    seed: false,
    env: { IMAGE_PROVIDER_URL: url, IMAGE_PROVIDER_TIMEOUT_MS: '300' },
  });
  patient = await startTestServer({
    seed: false,
    env: { IMAGE_PROVIDER_URL: url, IMAGE_PROVIDER_TIMEOUT_MS: '60000' },
    clock: patientNow,
  });
});
afterAll(async () => {
  for (const res of pendingSlow) res.destroy();
  await local?.close();
  await remote?.close();
  await patient?.close();
  await new Promise<void>((r) => providerServer.close(() => r()));
});

const db = () => local.sg.deps.services.db;
const assetsOf = (site: string) =>
  db().select().from(assets).where(eq(assets.websiteId, site)).orderBy(assets.id);
const pageState = async (site: string) => ({
  pages: await db().select().from(pages).where(eq(pages.websiteId, site)).orderBy(pages.id),
  sections: await db().select().from(sections).where(eq(sections.websiteId, site)).orderBy(sections.id),
});

async function creditsLog(s: TestServer, d: Workspace) {
  await s.sg.deps.activity.flush();
  return db()
    .select()
    .from(activity)
    .where(eq(activity.connectionId, d.connections.all))
    .then((rows) => rows.filter((r) => r.tool === 'generate_image'));
}

describe('local brand renderer', () => {
  it('uses only validated brand colours (no markup injection through the palette)', () => {
    const c = brandColours({
      primary: '#8A4B2A',
      accent: 'red"/><script>',
      background: '#fffaf2',
      x: '#123',
    });
    expect(c).toEqual({ background: '#fffaf2', inks: ['#8a4b2a', '#123'] });
    const svg = composeSvg('bread', 'landscape', {
      palette: { primary: '"><x/>' },
      fonts: {},
      style: '',
      memory: [],
    });
    expect(svg).not.toContain('<x/>');
    expect(svg).toContain('width="1344" height="768"');
  });

  it('makes one brand-coloured PNG into the library, charges 1 credit, logs it, and touches no page', async () => {
    const d = await local.seed(); // the demo brand: its palette colours the image
    const before = await pageState(d.websites.main);
    const r = await local.call(d.tokens.all, 'generate_image', {
      prompt: 'Fresh loaves on a wooden table',
      aspect: 'portrait',
    });
    expect(r.ok).toBe(true);
    expect(r.data).toMatchObject({
      mime: 'image/png',
      width: 768,
      height: 1344,
      creditsSpent: 1,
      creditsLeft: 39,
    });
    const [asset] = await assetsOf(d.websites.main);
    expect(asset).toMatchObject({ id: r.data!.assetId, source: 'generated', width: 768, height: 1344 });
    const bytes = await local.sg.deps.services.blobs.get(asset!.sha256);
    expect(bytes!.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    // The bottom band is the brand's primary colour (#8a4b2a).
    const { data } = await sharp(bytes!)
      .extract({ left: 0, top: 1343, width: 1, height: 1 })
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect([...data.subarray(0, 3)]).toEqual([0x8a, 0x4b, 0x2a]);
    expect((await company(db(), d.companyId)).credits).toBe(39);
    expect(await pageState(d.websites.main)).toEqual(before);
    const [line] = await creditsLog(local, d);
    expect(line).toMatchObject({ outcome: 'allowed', creditsSpent: 1 });
    expect(line!.summary).not.toContain('loaves');
  });

  it('10 concurrent calls with credit for 3 make exactly 3 images and leave 0, never below', async () => {
    const d = await local.workspace();
    await setCompany(db(), d.companyId, { credits: 3 });
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        local.call(d.tokens.all, 'generate_image', { prompt: `Image number ${i}` }),
      ),
    );
    expect(results.filter((r) => r.ok)).toHaveLength(3);
    expect(results.filter((r) => !r.ok).every((r) => r.error?.code === 'insufficient_credits')).toBe(true);
    expect((await company(db(), d.companyId)).credits).toBe(0);
    expect(await assetsOf(d.websites.main)).toHaveLength(3);
    const log = await creditsLog(local, d);
    expect(log.reduce((a, l) => a + l.creditsSpent, 0)).toBe(3);
  });

  it('two concurrent calls with credit for one: one image, one insufficient_credits', async () => {
    const d = await local.workspace();
    await setCompany(db(), d.companyId, { credits: 1 });
    const [a, b] = await Promise.all([
      local.call(d.tokens.all, 'generate_image', { prompt: 'first one' }),
      local.call(d.tokens.all, 'generate_image', { prompt: 'second one' }),
    ]);
    expect([a!.ok, b!.ok].sort()).toEqual([false, true]);
    expect([a!.error?.code, b!.error?.code]).toContain('insufficient_credits');
    expect((await company(db(), d.companyId)).credits).toBe(0);
  });

  it('re-reads AI consent on every call and refuses without it, charging nothing', async () => {
    const d = await local.workspace();
    expect((await local.call(d.tokens.all, 'generate_image', { prompt: 'with consent' })).ok).toBe(true);
    await setCompany(db(), d.companyId, { aiConsent: false });
    const r = await local.call(d.tokens.all, 'generate_image', { prompt: 'after consent withdrawn' });
    expect(r.error?.code).toBe('ai_consent_required');
    expect((await company(db(), d.companyId)).credits).toBe(39);
    expect(await assetsOf(d.websites.main)).toHaveLength(1);
  });

  it('refuses with no credits, a bad prompt, a missing scope or a viewer, writing nothing', async () => {
    const d = await local.workspace();
    await setCompany(db(), d.companyId, { credits: 0 });
    expect((await local.call(d.tokens.all, 'generate_image', { prompt: 'anything' })).error?.code).toBe(
      'insufficient_credits',
    );
    await setCompany(db(), d.companyId, { credits: 5 });
    for (const args of [{ prompt: '' }, { prompt: 'ok', aspect: 'panorama' }, { prompt: 'x'.repeat(1001) }]) {
      expect((await local.call(d.tokens.all, 'generate_image', args)).error?.code).toBe('invalid_input');
    }
    expect((await local.call(d.tokens.default, 'generate_image', { prompt: 'anything' })).error?.code).toBe(
      'scope_missing',
    );
    const viewer = await tokenFor(db(), {
      userId: d.users.viewer.id,
      websiteId: d.websites.main,
      companyId: d.companyId,
    });
    expect((await local.call(viewer, 'generate_image', { prompt: 'anything' })).error?.code).toBe(
      'role_insufficient',
    );
    expect((await company(db(), d.companyId)).credits).toBe(5);
    expect(await assetsOf(d.websites.main)).toHaveLength(0);
  });
});

describe('HTTP image provider (IMAGE_PROVIDER_URL)', () => {
  it('sends the brand, palette, style and Company Memory, and stores what comes back', async () => {
    provider.mode = 'ok';
    const d = await remote.seed(); // the demo brand and Company Memory are what is sent
    const r = await remote.call(d.tokens.all, 'generate_image', {
      prompt: 'A cinnamon bun',
      aspect: 'landscape',
    });
    expect(r.data).toMatchObject({ width: 64, height: 48, creditsSpent: 1, creditsLeft: 39 });
    const body = provider.bodies.at(-1)!;
    expect(body).toMatchObject({ prompt: 'A cinnamon bun', aspect: 'landscape', width: 1344, height: 768 });
    expect(body.brand).toMatchObject({ palette: { primary: '#8a4b2a' }, fonts: { heading: 'Fraunces' } });
    expect(body.companyMemory).toContain('Family bakery since 1987 on the harbour front.');
  });

  it('an outage, a slow answer past the timeout, a non-image or an oversized answer cost nothing and store nothing', async () => {
    const d = await remote.workspace();
    for (const mode of ['outage', 'slow', 'garbage', 'huge'] as const) {
      provider.mode = mode;
      const calls = provider.calls;
      const r = await remote.call(d.tokens.all, 'generate_image', { prompt: `during ${mode}` });
      expect(r.ok, mode).toBe(false);
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/nothing was changed/);
      expect(provider.calls).toBe(calls + 1);
      expect((await company(db(), d.companyId)).credits).toBe(40);
    }
    expect(await assetsOf(d.websites.main)).toHaveLength(0);
    const log = await creditsLog(remote, d);
    expect(log.map((l) => [l.outcome, l.creditsSpent])).toEqual([
      ['failed', 0],
      ['failed', 0],
      ['failed', 0],
      ['failed', 0],
    ]);
    provider.mode = 'ok';
  });

  it('a call that outlives its reservation lease is refunded once by the settling job, and its late image is not delivered free', async () => {
    const d = await patient.workspace();
    let refunded = -1;
    let held = -1;
    provider.mode = 'hook';
    provider.hook = async () => {
      // While the provider works, the credit is held: balance 39 and one reservation row.
      held = (await company(db(), d.companyId)).credits;
      const late = new Date(patientNow().getTime() + RESERVATION_LEASE_MS + 60_000);
      refunded = await settleReservations(db(), late);
    };
    const r = await patient.call(d.tokens.all, 'generate_image', { prompt: 'Very late loaves' });
    provider.mode = 'ok';
    expect(held).toBe(39);
    expect(refunded).toBe(1);
    expect(r.ok).toBe(false);
    expect((await company(db(), d.companyId)).credits).toBe(40);
    expect(await assetsOf(d.websites.main)).toHaveLength(0);
    expect(
      await db().select().from(creditReservations).where(eq(creditReservations.companyId, d.companyId)),
    ).toHaveLength(0);
    // Settling again refunds nothing more.
    expect(
      await settleReservations(db(), new Date(patientNow().getTime() + RESERVATION_LEASE_MS + 60_000)),
    ).toBe(0);
    expect((await company(db(), d.companyId)).credits).toBe(40);
    // A call that completes leaves no reservation behind and is charged once.
    const ok = await patient.call(d.tokens.all, 'generate_image', { prompt: 'On-time loaves' });
    expect(ok.data).toMatchObject({ creditsSpent: 1, creditsLeft: 39 });
    expect(
      await db().select().from(creditReservations).where(eq(creditReservations.companyId, d.companyId)),
    ).toHaveLength(0);
  });

  it('has a per-workspace per-minute bucket', async () => {
    provider.mode = 'ok';
    const d = await remote.workspace();
    let limited = 0;
    for (let i = 0; i < 22; i++) {
      const r = await remote.call(d.tokens.all, 'generate_image', { prompt: `bucket ${i}` });
      if (r.error?.code === 'rate_limited') limited++;
    }
    expect(limited).toBe(2);
    expect((await company(db(), d.companyId)).credits).toBe(20);
  });
});
