// Debian's Chromium through playwright-core, with the flags this closed network needs, and the setup
// every browser suite shares: one test server and one Chromium per file, closed after it, and signing
// in through the real login form. Whether the browser suites run at all is decided once, in
// vitest.config.ts: without Chromium they are skipped, unless SITEGATE_REQUIRE_BROWSER=1 (CI), which
// makes the missing browser a failure.
import { type Browser, type Page, chromium } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { type TestServer, startTestServer } from './server.js';

export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
}

export type ServerOptions = NonNullable<Parameters<typeof startTestServer>[0]>;

/** The file's server and browser, set once its beforeAll has run. */
export type BrowserSuite = { readonly s: TestServer; readonly browser: Browser };

/**
 * Registers the file's beforeAll and afterAll: a test server (with `options`, or what the function
 * returns once things it needs first, such as a mail server, have started) and one Chromium.
 */
export function browserSuite(options: ServerOptions | (() => Promise<ServerOptions>) = {}): BrowserSuite {
  let s: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    s = await startTestServer(typeof options === 'function' ? await options() : options);
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });
  return {
    get s() {
      if (!s) throw new Error('browserSuite: the server starts in beforeAll');
      return s;
    },
    get browser() {
      if (!browser) throw new Error('browserSuite: Chromium starts in beforeAll');
      return browser;
    },
  };
}

/**
 * Fills and submits the login form `page` shows (at /login, or where a page that needs a signed-in
 * person sent it) and waits until the browser has left /login.
 */
export async function submitLogin(page: Page, who: { email: string; password: string }): Promise<void> {
  // Waiting for a path other than /login proves the form was accepted only if the form was at /login.
  if (new URL(page.url()).pathname !== '/login') throw new Error(`no login form at ${page.url()}`);
  await page.fill('input[name=email]', who.email);
  await page.fill('input[name=password]', who.password);
  await Promise.all([page.waitForURL((u) => u.pathname !== '/login'), page.click('button[type=submit]')]);
}
