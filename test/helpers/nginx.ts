// Debian's nginx running the guide's own docs/deploy/nginx.conf, as an ordinary user in a folder of
// its own. The file is used as written, except for what differs on this machine, each replacement
// checked to apply (a changed file fails the test instead of going untested):
//   - the backends `10.0.0.11:8787`, `10.0.0.12:8787` become `127.0.0.1:<port>` of two processes;
//   - `listen 443 ssl` and `listen 80` become `listen 127.0.0.1:<free port>` (`ssl` kept);
//   - the certificate folder `/etc/ssl/mcp.example.com/` becomes the folder, with a self-signed pair;
// and it is included from a minimal main file (pid, logs and temporary folders in the same folder),
// as Debian's /etc/nginx/nginx.conf includes sites-enabled/.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { chownSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const NGINX = '/usr/sbin/nginx';

/** The process ids whose parent is `pid` (Linux /proc). */
function childrenOf(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …: the command name may hold spaces, so read after its closing paren.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      // The process ended while the list was read.
    }
  }
  return out;
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
export const hasNginx = spawnSync(NGINX, ['-v']).status === 0;

export type NginxPorts = { a: number; b: number; https: number; http: number };

/** The guide's nginx file with this machine's ports and paths. */
export function siteFile(ports: NginxPorts, certDir: string): string {
  let text = readFileSync('docs/deploy/nginx.conf', 'utf8');
  const swaps: Array<[string | RegExp, string]> = [
    ['server 10.0.0.11:8787', `server 127.0.0.1:${ports.a}`],
    ['server 10.0.0.12:8787', `server 127.0.0.1:${ports.b}`],
    [/listen 443 ssl;/, `listen 127.0.0.1:${ports.https} ssl;`],
    [/listen 80;/, `listen 127.0.0.1:${ports.http};`],
    [/\/etc\/ssl\/mcp\.example\.com\//g, `${certDir}/`],
  ];
  for (const [from, to] of swaps) {
    const next = text.replace(from, to);
    if (next === text) throw new Error(`docs/deploy/nginx.conf no longer has ${from}`);
    text = next;
  }
  return text;
}

/** The guide's rolling-restart step: add `down` to one backend's line, or take it away. */
export function markDown(site: string, port: number, down: boolean): string {
  const line = new RegExp(`(server 127\\.0\\.0\\.1:${port}\\b[^;]*?)( down)?;`);
  if (!line.test(site)) throw new Error(`no upstream line for port ${port}`);
  return site.replace(line, down ? '$1 down;' : '$1;');
}

export type Nginx = {
  dir: string;
  /** Writes the site file anew and reloads, as `nginx -s reload` after an edit. */
  reload(site: string): void;
  /** `nginx -t` on the files as they are. */
  check(): { ok: boolean; output: string };
  errorLog(): string;
  start(): ChildProcess;
};

/** A folder with the site file, a main file including it and a self-signed certificate for mcp.example.com. */
export function prepareNginx(ports: NginxPorts): Nginx {
  const dir = mkdtempSync(path.join(tmpdir(), 'sitegate-nginx-'));
  // nginx runs as an ordinary user: as `nobody` when the tests run as root.
  const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
  const cert = spawnSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:prime256v1',
    '-nodes',
    '-days',
    '1',
    '-subj',
    '/CN=mcp.example.com',
    '-keyout',
    path.join(dir, 'privkey.pem'),
    '-out',
    path.join(dir, 'fullchain.pem'),
  ]);
  if (cert.status !== 0) throw new Error(`openssl: ${cert.stderr}`);
  const siteConf = path.join(dir, 'sitegate.conf');
  writeFileSync(siteConf, siteFile(ports, dir));
  writeFileSync(
    path.join(dir, 'nginx.conf'),
    `events { worker_connections 512; }
http {
    access_log ${dir}/access.log;
    client_body_temp_path ${dir}/body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    include ${siteConf};
}
`,
  );
  if (asUser.uid !== undefined)
    for (const f of [dir, ...readdirSync(dir).map((f) => path.join(dir, f))])
      chownSync(f, asUser.uid, asUser.gid!);
  const args = ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-e', path.join(dir, 'error.log')];
  const globals = `pid ${dir}/nginx.pid; error_log ${dir}/error.log;`;
  return {
    dir,
    reload(site) {
      writeFileSync(siteConf, site);
      // `nginx -s reload` only signals the master and returns. A second signal while the master is
      // still applying the first made it lose its listening sockets (bind: address in use): wait
      // until the new configuration's workers run, as an operator who looks before the next step.
      const master = Number(readFileSync(path.join(dir, 'nginx.pid'), 'utf8').trim());
      const before = new Set(childrenOf(master));
      const r = spawnSync(NGINX, [...args, '-g', globals, '-s', 'reload'], asUser);
      if (r.status !== 0) throw new Error(`nginx -s reload: ${r.stderr}`);
      for (let i = 0; i < 250 && !childrenOf(master).some((pid) => !before.has(pid)); i++) pause(20);
    },
    check() {
      const r = spawnSync(NGINX, [...args, '-g', globals, '-t'], { ...asUser, encoding: 'utf8' });
      return { ok: r.status === 0, output: `${r.stdout}${r.stderr}` };
    },
    errorLog() {
      try {
        return readFileSync(path.join(dir, 'error.log'), 'utf8');
      } catch {
        return '';
      }
    },
    start: () => spawn(NGINX, [...args, '-g', `daemon off; ${globals}`], { ...asUser, stdio: 'ignore' }),
  };
}
