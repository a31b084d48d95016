// Test-only fault injection (docs/reliability.md): `SITEGATE_FAULT=<point>` makes the process kill itself
// with SIGKILL the first time it reaches that named point, so the fault suite (test/reliability/) can crash
// a real server at an exact moment and check what survives. The variable is read once, at load, and
// only when NODE_ENV is not `production`: a production process never arms a fault, whatever its
// environment says. Points: after-write-commit, after-own-commit, import-after-blobs,
// generate-after-provider, mail-after-accept, demo-mid-seed (docs/reliability.md).
const armed = process.env.NODE_ENV === 'production' ? undefined : process.env.SITEGATE_FAULT || undefined;

export function faultPoint(name: string): void {
  if (armed === undefined || armed !== name) return;
  process.kill(process.pid, 'SIGKILL');
}

/** Whether a fault is armed in this process (the server says so loudly at start). */
export const faultArmed = (): string | undefined => armed;
