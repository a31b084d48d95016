// `sitegate pair --url BASE [--scopes …]`: device-code pairing (R-PAIR-1). Shows the code and the
// page to open, waits (with a spinner on a terminal) while polling at the server's interval (slow_down respected),
// and stores the token once in the user's config dir (0600).
import { setTimeout as sleep } from 'node:timers/promises';
import { spinner } from '@clack/prompts';
import type { StartedPairing } from '../auth/pairing.js';
import { DEFAULT_SCOPES } from '../kernel/scopes.js';
import { checkCredentialsFile, credentialsPath, normaliseUrl, storeCredential } from './credentials.js';

/**
 * The wait, shown as a spinner on a terminal; into a pipe or a log file, one line when it starts and
 * one when it ends (an animation there is only noise).
 */
function waiting(): { start(msg: string): void; stop(msg: string): void } {
  if (process.stdout.isTTY) return spinner();
  return {
    start: (msg) => process.stdout.write(`${msg}…\n`),
    stop: (msg) => process.stdout.write(`${msg}\n`),
  };
}

const post = (url: string, body: unknown) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

export async function pairCommand(opts: { url: string; scopes?: string; name?: string }): Promise<number> {
  const base = normaliseUrl(opts.url);
  const scopes = opts.scopes ? opts.scopes.split(/[\s,]+/).filter(Boolean) : [...DEFAULT_SCOPES];
  const clientName = opts.name ?? 'sitegate CLI';
  checkCredentialsFile(); // a token the owner approved must have somewhere to go
  const res = await post(`${base}/v1/cli/pair/start`, { scopes, clientName });
  if (res.status !== 201) {
    process.stderr.write(`Pairing could not start (${res.status}): ${await res.text()}\n`);
    return 1;
  }
  const p = (await res.json()) as StartedPairing;
  process.stdout.write(
    `\nTo connect this terminal, open ${p.verificationUriComplete}\nand check that it shows the code: ${p.userCode}\n` +
      `Requested scopes: ${scopes.join(', ')}\n\n`,
  );
  const spin = waiting();
  spin.start('Waiting for the owner to approve');
  let interval = p.interval;
  const deadline = Date.now() + p.expiresIn * 1000;
  while (Date.now() < deadline) {
    await sleep(interval * 1000);
    const r = await post(`${base}/v1/cli/pair/poll`, { deviceCode: p.deviceCode });
    const body = (await r.json().catch(() => ({}))) as Record<string, unknown>;
    if (r.status === 202) continue;
    if (r.status === 429) {
      interval = typeof body.interval === 'number' ? body.interval : interval + 5;
      continue;
    }
    if (r.status === 200 && typeof body.token === 'string') {
      storeCredential({
        url: base,
        token: body.token,
        scopes: (body.scopes as string[]) ?? [],
        reach: String(body.reach ?? 'website'),
        clientName,
        pairedAt: new Date().toISOString(),
      });
      spin.stop(`Paired. Scopes: ${((body.scopes as string[]) ?? []).join(', ')}`);
      process.stdout.write(`Token stored in ${credentialsPath()}\n`);
      return 0;
    }
    spin.stop(
      r.status === 403 ? 'The owner declined.' : `Pairing ended (${r.status} ${String(body.error ?? '')}).`,
    );
    return 1;
  }
  spin.stop('The code expired. Run sitegate pair again.');
  return 1;
}
