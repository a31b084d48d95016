// The control socket of an embedded instance (R-OPS-1, R-OPS-3). PGlite lets one process open
// DATA_DIR, so while `sitegate serve` runs, `sitegate admin` and `sitegate backup` reach its database
// through DATA_DIR/control.sock: a Unix socket with mode 0600, so only the user that runs the service
// (the same who could read DATA_DIR) can use it. One JSON line in, one JSON line out.
import { chmodSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { type Socket, connect, createServer } from 'node:net';
import path from 'node:path';
import { Refusal } from '../kernel/errors.js';

/** A request line is small (a command and its options); anything longer is refused unread. */
const MAX_LINE = 64 * 1024;

const controlPath = (dataDir: string) => path.join(path.resolve(dataDir), 'control.sock');

export type ControlHandler = (op: string, args: unknown) => Promise<unknown>;

/** Is a server answering on DATA_DIR's control socket? (A stale socket file is not.) */
export async function controlAlive(dataDir: string): Promise<boolean> {
  const file = controlPath(dataDir);
  if (!existsSync(file)) return false;
  return new Promise((resolve) => {
    const s = connect(file);
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });
}

export async function startControl(
  dataDir: string,
  handle: ControlHandler,
  onError: (err: unknown) => void,
): Promise<{ close(): Promise<void> }> {
  const file = controlPath(dataDir);
  if (await controlAlive(dataDir))
    throw new Error(`another Sitegate process is serving ${path.resolve(dataDir)}`);
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  rmSync(file, { force: true }); // a stale socket left by a killed process
  const server = createServer((sock) => {
    let buf = '';
    sock.setEncoding('utf8');
    sock.on('data', (chunk: string) => {
      buf += chunk;
      if (buf.length > MAX_LINE) return void reply(sock, { ok: false, message: 'request too large' });
      const nl = buf.indexOf('\n');
      if (nl < 0) return;
      const line = buf.slice(0, nl);
      buf = '';
      let req: { op?: unknown; args?: unknown };
      try {
        req = JSON.parse(line);
      } catch {
        return void reply(sock, { ok: false, message: 'not JSON' });
      }
      handle(String(req.op), req.args).then(
        (result) => reply(sock, { ok: true, result }),
        (err) => {
          if (err instanceof Refusal) return reply(sock, { ok: false, code: err.code, message: err.message });
          onError(err);
          reply(sock, { ok: false, message: 'The command failed; the service log has the details.' });
        },
      );
    });
    sock.on('error', () => {});
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(file, () => resolve());
  });
  chmodSync(file, 0o600);
  return {
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        rmSync(file, { force: true });
      }),
  };
}

function reply(sock: Socket, body: unknown) {
  sock.end(`${JSON.stringify(body)}\n`);
}

class ControlError extends Error {
  constructor(
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

/** Sends one command to the serving process; resolves with its result or throws its refusal. */
export function callControl(dataDir: string, op: string, args: unknown): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const s = connect(controlPath(dataDir));
    let buf = '';
    s.setEncoding('utf8');
    s.on('connect', () => s.write(`${JSON.stringify({ op, args })}\n`));
    s.on('data', (d: string) => {
      buf += d;
    });
    s.on('error', reject);
    s.on('end', () => {
      try {
        const r = JSON.parse(buf) as { ok: boolean; result?: unknown; code?: string; message?: string };
        if (r.ok) resolve(r.result);
        else reject(new ControlError(r.message ?? 'failed', r.code));
      } catch {
        reject(new Error('the serving process gave no answer'));
      }
    });
  });
}
