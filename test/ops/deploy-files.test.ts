// The configuration docs/operating.md gives an operator, checked as files, not read as prose:
// - the guide quotes docs/deploy/nginx.conf and docs/deploy/sitegate.service whole, so the quote and
//   the files the tests run cannot drift apart;
// - the systemd unit passes `systemd-analyze verify` with no warning (an unknown key or a bad value is
//   only a warning to systemd), restarts on failure with a start limit, and gives a stop more time than
//   the guide's drain and shutdown bound together;
// - the nginx file passes `nginx -t` with this machine's ports and paths (the rolling-restart test runs
//   it under load on PostgreSQL);
// - every variable of the guide's environment block is a setting `sitegate serve` knows and accepts;
// - the Prometheus scrape configuration parses and sends the metrics token.
// systemd-analyze and nginx are required where CI requires its tools (SITEGATE_REQUIRE_BROWSER=1).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { ENV_HELP, loadConfig } from '../../src/config.js';
import { hasNginx, prepareNginx } from '../helpers/nginx.js';
import { freePort } from '../helpers/server.js';

const guide = readFileSync('docs/operating.md', 'utf8');
const unit = readFileSync('docs/deploy/sitegate.service', 'utf8');
const nginxFile = readFileSync('docs/deploy/nginx.conf', 'utf8');
const required = process.env.SITEGATE_REQUIRE_BROWSER === '1';
const hasAnalyze = spawnSync('systemd-analyze', ['--version']).status === 0;
if (required && !hasAnalyze)
  throw new Error('systemd-analyze must run here (Debian: apt-get install systemd).');
if (required && !hasNginx) throw new Error('nginx must run here (Debian: apt-get install nginx-light).');

/** The fenced blocks of the guide in a given language. */
const blocks = (lang: string) =>
  [...guide.matchAll(new RegExp(`^\`\`\`${lang}\\n([\\s\\S]*?)^\`\`\`$`, 'gm'))].map((m) => m[1]!);

/** `[Section] Key=value` pairs of a unit file (comments and blank lines left out). */
function unitKeys(text: string): Map<string, string> {
  const keys = new Map<string, string>();
  let section = '';
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (!t || t.startsWith('#')) continue;
    const head = /^\[(\w+)\]$/.exec(t);
    if (head) section = head[1]!;
    else {
      const eq = t.indexOf('=');
      keys.set(`${section}.${t.slice(0, eq)}`, t.slice(eq + 1));
    }
  }
  return keys;
}

/** The guide's `export NAME=value` lines of step 2, values with a placeholder given a real one. */
function guideEnvironment(): Record<string, string> {
  const step2 = guide.slice(guide.indexOf('## 2. Configure'), guide.indexOf('## 3.'));
  const env: Record<string, string> = {};
  for (const line of step2.split('\n')) {
    if (!line.startsWith('export ')) continue;
    const assignments = line.slice('export '.length).split('#')[0]!;
    for (const m of assignments.matchAll(/(\w+)=('[^']*'|\S+)/g)) {
      const value = m[2]!.replace(/^'|'$/g, '');
      env[m[1]!] = value.includes('…') ? value.replace('…', 'x'.repeat(40)) : value;
    }
  }
  return env;
}

describe('docs/operating.md configuration', () => {
  it('quotes the deploy files whole', () => {
    expect(blocks('nginx')).toContain(nginxFile);
    expect(blocks('ini')).toContain(unit);
  });

  it('every variable of the environment block is a setting serve accepts', () => {
    const env = guideEnvironment();
    expect(Object.keys(env)).toEqual(
      expect.arrayContaining(['TRUST_PROXY', 'SHUTDOWN_DRAIN_MS', 'DATABASE_URL']),
    );
    for (const name of Object.keys(env)) expect(Object.keys(ENV_HELP), name).toContain(name);
    const config = loadConfig(env);
    expect(config.trustProxy).toEqual(['10.0.0.5', '10.0.0.6']);
    expect(config.trustProxyLegacy).toBe(false);
  });

  it('the systemd unit restarts on failure, has a start limit, and outlasts a stop', () => {
    const keys = unitKeys(unit);
    expect(keys.get('Service.Restart')).toBe('on-failure');
    expect(Number(keys.get('Service.RestartSec'))).toBeGreaterThan(0);
    expect(Number(keys.get('Unit.StartLimitIntervalSec'))).toBeGreaterThan(0);
    expect(Number(keys.get('Unit.StartLimitBurst'))).toBeGreaterThan(0);
    expect(keys.get('Service.ExecStart')).toMatch(/bin\/sitegate\.mjs serve$/);
    const config = loadConfig(guideEnvironment());
    expect(Number(keys.get('Service.TimeoutStopSec')) * 1000).toBeGreaterThan(
      config.shutdownDrainMs + config.shutdownTimeoutMs,
    );
  });

  it.runIf(hasAnalyze)('the systemd unit passes systemd-analyze verify without a warning', () => {
    // Only the program's path is this checkout's: verify checks that it exists and is executable.
    const dir = mkdtempSync(path.join(tmpdir(), 'sitegate-unit-'));
    const file = path.join(dir, 'sitegate.service');
    writeFileSync(file, unit.replace('/srv/sitegate/bin/sitegate.mjs', path.resolve('bin/sitegate.mjs')));
    const r = spawnSync('systemd-analyze', ['verify', file], { encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stderr.trim()).toBe('');
  });

  it.runIf(hasNginx)('the nginx file passes nginx -t', async () => {
    const nginx = prepareNginx({
      a: await freePort(),
      b: await freePort(),
      https: await freePort(),
      http: await freePort(),
    });
    const r = nginx.check();
    expect(r.ok, r.output).toBe(true);
  });

  it('the Prometheus scrape configuration parses and sends the metrics token', () => {
    const [yaml] = blocks('yaml');
    const config = parseYaml(yaml!) as {
      scrape_configs: Array<{
        authorization: { credentials_file: string };
        static_configs: { targets: string[] }[];
      }>;
    };
    const job = config.scrape_configs[0]!;
    expect(job.authorization.credentials_file).toMatch(/^\//);
    expect(job.static_configs[0]!.targets).toEqual(['10.0.0.11:8787', '10.0.0.12:8787']);
  });
});
