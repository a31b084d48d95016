// Admission, the first step of a tool call (docs/authorization.md): the rate limits, a scope the
// connection lacks (refused before anything is parsed, so the refusal's code is stable), and the input
// parsed against the tool's schema. What passes is the call the rest of the path runs.
import { authorize } from '../../gate/authorize.js';
import type { Caller } from '../../kernel/caller.js';
import { invalidInput } from '../../kernel/errors.js';
import { unstorableInput } from '../../domain/storable.js';
import type { CallDeps } from '../call.js';
import type { CompiledTool } from '../registry.js';

export type Admitted = {
  /** The parsed input, without the idempotency key: what `run`, Activity and the fingerprint see. */
  input: Record<string, unknown>;
  /** The call's idempotency key, for a tool declared `idempotent: 'key'` that was given one. */
  key: string | null;
};

export async function admit(
  deps: CallDeps,
  caller: Caller,
  tool: CompiledTool,
  args: unknown,
): Promise<Admitted> {
  await deps.limits.consume(caller, tool.def.bucket);
  // The gate decides (it checks again inside the call); failing before parsing keeps the code stable.
  if (!caller.scopes.includes(tool.def.scope)) await authorize(deps.services.db, caller, tool.def, undefined);
  const { idempotencyKey, ...input } = parseInput(tool, args);
  const keyed = tool.def.idempotent === 'key' && typeof idempotencyKey === 'string';
  return { input, key: keyed ? (idempotencyKey as string) : null };
}

function parseInput(tool: CompiledTool, args: unknown): Record<string, unknown> {
  // What no schema can store (NUL, lone surrogates, absurd nesting, __proto__) is refused first, the
  // same for every tool (R-SEC-2).
  const unstorable = unstorableInput(args);
  if (unstorable) {
    throw invalidInput(
      `Invalid input for ${tool.def.name}: ${unstorable}.`,
      'Nothing was changed. Remove the character or flatten the value and call again.',
    );
  }
  const r = tool.input.safeParse(args ?? {});
  if (r.success) return r.data as Record<string, unknown>;
  const issues = r.error.issues.slice(0, 3).map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`);
  throw invalidInput(
    `Invalid input for ${tool.def.name}: ${issues.join('; ')}`,
    'Nothing was changed. Check the tool’s input schema.',
  );
}
