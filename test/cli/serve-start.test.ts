// What `sitegate serve` says when it starts, as a real child process: with --demo, every token's place
// and purpose, not only the default one; on a port another process holds, which setting moves it
// instead of a raw EADDRINUSE; and `sitegate pair` into a pipe writes lines, never a spinner's frames.
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sitegate, until } from '../helpers/process.js';
import { freePort } from '../helpers/server.js';
import { type TestServer, startTestServer } from '../helpers/server.js';
import { signIn } from '../helpers/web.js';

describe('sitegate serve', () => {
  it('with --demo names where the all-scopes and workspace tokens are and what each is for', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'sitegate-serve-'));
    const dataDir = path.join(root, 'data');
    const port = await freePort();
    const server = sitegate(['serve', '--demo'], {
      env: { DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', PORT: String(port) },
    });
    try {
      await until(
        () => (/Other tokens/.test(server.out()) ? true : null),
        1800,
        () => server.err(),
      );
      await until(() => (/Or try it with MCP Inspector/.test(server.out()) ? true : null), 100);
      const out = server.out();
      const file = path.join(dataDir, 'demo-tokens.json');
      expect(out).toContain(`Other tokens   in ${file}`);
      expect(out).toMatch(/"all" +every scope on the demo site/);
      expect(out).toMatch(/"workspace" +every scope on every site of the demo workspace/);
      // The file holds the tokens it names, and the banner does not print them.
      const kept = JSON.parse(readFileSync(file, 'utf8')).tokens;
      expect(Object.keys(kept).sort()).toEqual(['all', 'default', 'workspace']);
      expect(out).toContain(kept.default);
      expect(out).not.toContain(kept.all);
      expect(out).not.toContain(kept.workspace);
    } finally {
      server.child.kill('SIGTERM');
      await server.done;
    }
  }, 120_000);

  it('on a port another process holds, says which setting moves it', async () => {
    const holder = createServer();
    const port = await freePort();
    await new Promise<void>((resolve) => holder.listen(port, '127.0.0.1', resolve));
    try {
      const dataDir = mkdtempSync(path.join(tmpdir(), 'sitegate-busy-'));
      const r = await sitegate(['serve'], {
        env: { DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', PORT: String(port) },
      }).done;
      expect(r.code).toBe(1);
      expect(r.err).toContain(`Port ${port} on 127.0.0.1 is already in use`);
      expect(r.err).toContain('set PORT to a free port');
      expect(r.err).not.toContain('EADDRINUSE');
    } finally {
      holder.close();
    }
  }, 120_000);
});

describe('sitegate pair into a pipe', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ env: { PAIR_INTERVAL_SECONDS: '1' } });
  });
  afterAll(() => s?.close());

  it('writes one line when it starts waiting and one when it ends, no spinner frames', async () => {
    const home = mkdtempSync(path.join(tmpdir(), 'sitegate-pipe-'));
    // CI empty: the pipe alone decides.
    const run = sitegate(['pair', '--url', s.url, '--name', 'pipe-test'], {
      env: { CI: '', HOME: home, XDG_CONFIG_HOME: path.join(home, 'xdg') },
    });
    const code = await until(() => /code: ([A-Z0-9]{4}-[A-Z0-9]{4})/.exec(run.out())?.[1], 200);
    const owner = await signIn(s.url, s.demo.users.owner.email, s.demo.users.owner.password);
    const ok = await owner.post('/dashboard/connect/pairing', {
      code,
      websiteId: s.demo.websites.main,
      reach: 'website',
      scopes: ['content:write'],
      decision: 'approve',
    });
    expect(ok.status).toBe(200);
    const done = await run.done;
    expect(done.code).toBe(0);
    expect(done.out).toContain('Waiting for the owner to approve…\n');
    expect(done.out).toContain('Paired. Scopes: site:read, content:write\n');
    // No carriage returns, cursor moves or spinner glyphs: a log reads as lines.
    expect(done.out).not.toContain('\r');
    expect(done.out).not.toContain('\u001b[');
    expect(done.out).not.toMatch(/[◒◐◓◑]/);
  }, 120_000);
});
