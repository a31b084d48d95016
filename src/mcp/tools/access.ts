// access:write tools (R-ACC-1): members and invitations of the target site, and the reviewed
// invitation plan. Owner-only at prepare and at confirm; no invitation link ever reaches the caller.
import { z } from 'zod';
import { listAccess } from '../../domain/access/invitations.js';
import { prepareGrantAccess } from '../../plans/kinds/access.js';
import { defineTool } from '../define-tool.js';
import { NEXT_STEP, PREPARE, PlanTicketOutput } from './plan-shared.js';
import { plural } from '../../kernel/plural.js';

const access = { scope: 'access:write', area: 'access', role: 'owner' } as const;

export const list_access = defineTool({
  name: 'list_access',
  title: 'List access',
  description: 'Members of the website with their roles, and pending invitations (address and level).',
  ...access,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  transaction: 'none',
  input: z.object({}),
  output: z.object({
    members: z.array(z.object({ name: z.string(), email: z.string(), role: z.string() })),
    invitations: z.array(z.object({ email: z.string(), level: z.string(), expiresAt: z.string() })),
  }),
  activity: (_i, d) =>
    `Listed access: ${plural(d?.members.length ?? 0, 'member')}, ${plural(d?.invitations.length ?? 0, 'invitation')}`,
  run: (ctx) => listAccess(ctx),
});

export const prepare_grant_access = defineTool({
  name: 'prepare_grant_access',
  title: 'Prepare an invitation',
  description: `Prepares a plan to invite one address to this website as editor or viewer ('owner' is not accepted). The invitation email goes to that address only; you never receive the link. ${NEXT_STEP}`,
  ...access,
  annotations: PREPARE,
  idempotent: 'key',
  input: z.object({
    email: z.email().max(254).describe('The address to invite.'),
    level: z
      .enum(['editor', 'viewer'], {
        error: "level must be 'editor' or 'viewer'; 'owner' cannot be granted through a connection.",
      })
      .describe("'editor' or 'viewer'."),
  }),
  output: PlanTicketOutput,
  activity: (i) => `Prepared an invitation plan (${i.level})`,
  run: (ctx, input) => prepareGrantAccess(ctx, input),
});
