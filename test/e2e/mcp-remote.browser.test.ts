// mcp-remote 0.15 (what Claude Desktop users run) through the whole OAuth path, as a person would:
// an MCP client speaks stdio to mcp-remote, which discovers Sitegate's protected-resource metadata,
// registers with the development identity provider, and prints the sign-in URL; headless Chromium
// signs in there as the owner and consents. The unbound first call answers with the connect link
// (mcp-remote keeps running), the owner binds the client in the browser, and the next call through
// the same mcp-remote process succeeds — no restart. The registered client_name is what the owner sees.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { eq } from 'drizzle-orm';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Idp, startIdp } from '../../src/auth/oauth/idp.js';
import { connections } from '../../src/db/schema.js';
import { browserSuite, submitLogin } from '../helpers/browser.js';
import { testDatabase } from '../helpers/db.js';
import { freePort } from '../helpers/server.js';

let idpPort: number;
let idp: Idp;
let client: Client | undefined;

afterAll(async () => {
  await idp?.close();
});
const suite = browserSuite(async () => {
  idpPort = await freePort();
  return { seed: false, env: { OAUTH_ISSUER: `http://127.0.0.1:${idpPort}` } };
});
beforeAll(async () => {
  idp = await startIdp({ db: (await testDatabase()).db, audience: suite.s.mcpUrl, port: idpPort });
});
afterAll(async () => {
  await client?.close().catch(() => {});
});

/** Polls `get` until it returns a value (bounded), for output a child process writes when it will. */
async function until<T>(get: () => T | undefined, what: string, ms = 60_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function fillAndSubmit(page: Page, fields: Record<string, string>) {
  for (const [name, value] of Object.entries(fields)) await page.fill(`input[name=${name}]`, value);
  await Promise.all([page.waitForLoadState('load'), page.click('button[type=submit]')]);
}

const envelope = (r: unknown) =>
  (r as { structuredContent?: { ok: boolean; error?: { code: string; message: string } } }).structuredContent;

it('signs in through the suite.browser, is told where to bind, and works after binding without a restart', async () => {
  const demo = await suite.s.seed();
  const callbackPort = await freePort();
  const configDir = mkdtempSync(path.join(tmpdir(), 'sitegate-mcp-remote-'));
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [
      path.resolve('node_modules/mcp-remote/dist/proxy.js'),
      suite.s.mcpUrl,
      String(callbackPort),
      '--host',
      '127.0.0.1',
      '--transport',
      'http-only',
    ],
    // Its own token store; no desktop browser to open (the test's Chromium plays the person).
    env: { ...process.env, MCP_REMOTE_CONFIG_DIR: configDir, BROWSER: '/bin/false', DISPLAY: '' } as Record<
      string,
      string
    >,
    stderr: 'pipe',
  });
  let log = '';
  transport.stderr?.on('data', (d: Buffer) => {
    log += d.toString();
  });
  client = new Client({ name: 'claude-desktop-stand-in', version: '1.0.0' });
  const connected = client.connect(transport);

  // mcp-remote found the authorization server through the metadata and registered itself.
  const authUrl = await until(
    () => /Please authorize this client by visiting:\s*(\S+)/.exec(log)?.[1],
    'the authorization URL on mcp-remote stderr',
  );
  expect(new URL(authUrl).origin).toBe(idp.issuer);
  const person = await (await suite.browser.newContext()).newPage();
  await person.goto(authUrl);
  await expect(person.locator('h1').textContent()).resolves.toBe('Sign in');
  await fillAndSubmit(person, { email: demo.users.owner.email, password: demo.users.owner.password });
  await expect(person.locator('h1').textContent()).resolves.toBe('Allow access');
  await Promise.all([
    person.waitForURL((u) => u.port === String(callbackPort)),
    person.click('form[action$="/confirm"] button'),
  ]);
  await connected;

  // Signed in, not bound: it connects and lists; its first call names the connect page and code.
  expect((await client.listTools()).tools.map((t) => t.name)).toContain('list_pages');
  const first = await client.callTool({ name: 'list_pages', arguments: {} });
  expect(first.isError).toBe(true);
  expect(envelope(first)?.error?.code).toBe('not_connected');
  const link = /(http:\/\/\S+\/dashboard\/connect\?code=([A-Z2-9]{4}-[A-Z2-9]{4}))/.exec(
    envelope(first)!.error!.message,
  );
  expect(link?.[1]).toBeDefined();

  // The owner follows the link in the browser (signing in to Sitegate first) and binds the client.
  const owner = await (await suite.browser.newContext()).newPage();
  await owner.goto(link![1]!);
  expect(new URL(owner.url()).pathname).toBe('/login');
  await submitLogin(owner, demo.users.owner);
  if (new URL(owner.url()).pathname !== '/dashboard/connect') await owner.goto(link![1]!);
  const form = owner.locator('#signin-form');
  // The client by the name it registered with, the person by email.
  await expect(form.textContent()).resolves.toContain(demo.users.owner.email);
  const registered = 'MCP CLI Proxy'; // the client_name mcp-remote registers with
  await expect(form.textContent()).resolves.toContain(registered);
  await owner.selectOption('#signin-form select[name=websiteId]', demo.websites.main).catch(() => {});
  await Promise.all([owner.waitForLoadState('load'), form.locator('button[type=submit]').click()]);

  // The same mcp-remote process, no restart: the next call works.
  const next = await client.callTool({ name: 'list_pages', arguments: {} });
  expect(envelope(next)?.ok).toBe(true);
  const bound = await suite.s.sg.deps.services.db
    .select()
    .from(connections)
    .where(eq(connections.createdBy, demo.users.owner.id));
  expect(bound.filter((c) => c.clientKind === 'oauth').map((c) => [c.name, c.oauthEmail])).toEqual([
    [registered, demo.users.owner.email],
  ]);
  // The Developers page names it the same way: by its registered name and the person's email.
  await owner.goto(`${suite.s.url}/settings/advanced/developers`);
  const row = await owner.locator('tr[data-connection]', { hasText: registered }).textContent();
  expect(row).toContain(`signed in as ${demo.users.owner.email}`);
  await owner.screenshot({ path: path.join(configDir, 'developers.png'), fullPage: true });
}, 180_000);
