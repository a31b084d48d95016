// The reviewed-plan rail's tools (R-PLAN-1, R-PLAN-4, R-TOOL-5): publish_site (always refused), the prepare_*
// tools for publishing, products, search visibility and companies, and confirm_pending_action. The rules
// live in src/plans/; these are declarations.
import { z } from 'zod';
import { Refusal } from '../../kernel/errors.js';
import { confirmPlan } from '../../plans/confirm.js';
import { KINDS } from '../../plans/kinds/index.js';
import { prepareCreateCompany } from '../../plans/kinds/company.js';
import { preparePublishProduct } from '../../plans/kinds/product.js';
import { preparePublish, prepareUnpublish } from '../../plans/kinds/publish.js';
import { prepareSearchVisibility } from '../../plans/kinds/visibility.js';
import { ParamId, defineTool } from '../define-tool.js';
import { NEXT_STEP, PREPARE, PlanTicketOutput } from './plan-shared.js';

const publishing = { scope: 'publish', area: 'publishing', role: 'editor' } as const;

export const publish_site = defineTool({
  name: 'publish_site',
  title: 'Publish site (needs review)',
  description:
    'Never publishes directly: always refused with review_required. To publish, call prepare_publish, let the owner approve, then call confirm_pending_action.',
  ...publishing,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.object({}),
  output: z.object({}),
  activity: () => 'Direct publish refused',
  run: async () => {
    throw new Refusal(
      'review_required',
      'Publishing is never done directly; the owner reviews and approves every publish.',
      'Call prepare_publish, give the owner the approveUrl, then call confirm_pending_action with the planId.',
    );
  },
});

export const prepare_publish = defineTool({
  name: 'prepare_publish',
  title: 'Prepare publishing',
  description: `Prepares a plan to publish the current draft (the changes list_draft_changes shows) to the live site. ${NEXT_STEP}`,
  ...publishing,
  annotations: PREPARE,
  idempotent: 'key',
  input: z.object({}),
  output: PlanTicketOutput,
  activity: () => 'Prepared a publish plan',
  run: (ctx) => preparePublish(ctx),
});

export const prepare_unpublish = defineTool({
  name: 'prepare_unpublish',
  title: 'Prepare unpublishing',
  description: `Prepares a plan to take the live site offline (the draft is kept). ${NEXT_STEP}`,
  ...publishing,
  annotations: PREPARE,
  idempotent: 'key',
  input: z.object({}),
  output: PlanTicketOutput,
  activity: () => 'Prepared an unpublish plan',
  run: (ctx) => prepareUnpublish(ctx),
});

export const prepare_publish_product = defineTool({
  name: 'prepare_publish_product',
  title: 'Prepare publishing a product',
  description: `Prepares a plan to make one exact revision of a draft product public. ${NEXT_STEP}`,
  scope: 'commerce:write',
  area: 'commerce',
  role: 'editor',
  annotations: PREPARE,
  idempotent: 'key',
  input: z.object({ productId: ParamId.describe('Product id from list_products.') }),
  output: PlanTicketOutput,
  activity: () => 'Prepared a publish-product plan',
  run: (ctx, input) => preparePublishProduct(ctx, input.productId),
});

export const prepare_search_visibility = defineTool({
  name: 'prepare_search_visibility',
  title: 'Prepare search visibility',
  description: `Prepares a plan to let search engines index the live site (visible: true) or to hide it (false). ${NEXT_STEP}`,
  scope: 'settings:write',
  area: 'settings',
  role: 'editor',
  annotations: PREPARE,
  idempotent: 'key',
  input: z.object({ visible: z.boolean().describe('true: visible to search engines; false: hidden.') }),
  output: PlanTicketOutput,
  activity: (i) => `Prepared a search visibility plan (${i.visible ? 'visible' : 'hidden'})`,
  run: (ctx, input) => prepareSearchVisibility(ctx, input.visible),
});

export const prepare_create_company = defineTool({
  name: 'prepare_create_company',
  title: 'Prepare creating a company',
  description: `Prepares a plan to create a new company (free plan, no credits, no website, nothing charged) owned by the connection's owner. ${NEXT_STEP}`,
  scope: 'workspace:write',
  area: 'workspace',
  role: 'owner',
  workspaceLevel: true,
  annotations: PREPARE,
  idempotent: 'key',
  input: z.object({ name: z.string().min(2).max(120).describe('The new company’s name.') }),
  output: PlanTicketOutput,
  activity: () => 'Prepared a create-company plan',
  run: (ctx, input) => prepareCreateCompany(ctx, input.name),
});

/** How each plan kind is authorized when redeemed, in words (the rules themselves live in KINDS). */
const KIND_RULES = Object.values(KINDS)
  .map((k) => `${k.kind}: ${k.rule.scope}, ${k.rule.role}${k.rule.role === 'owner' ? ' only' : ' or owner'}`)
  .join('; ');

export const confirm_pending_action = defineTool({
  name: 'confirm_pending_action',
  title: 'Carry out an approved plan',
  description: `Carries out a plan the owner has approved, once, within 5 minutes of preparing it, on the plan's own website. Authorized per plan kind (scope, role of the connection's creator): ${KIND_RULES}. Refusals: plan_pending (not approved yet; ask the owner), review_required (declined: ask the owner before preparing again), plan_expired, plan_used, plan_revision_changed (prepare again), plan_wrong_caller.`,
  // The scope that matters is the plan kind's: confirmPlan re-runs the gate with it on the plan's website.
  scope: 'site:read',
  area: 'site',
  role: 'viewer',
  workspaceLevel: true,
  authorizedBy: Object.values(KINDS).map((k) => k.rule),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: true },
  input: z.object({ planId: ParamId.describe('The planId a prepare_* tool returned.') }),
  output: z.object({
    planId: z.string(),
    kind: z.string(),
    status: z.literal('redeemed'),
    summary: z.string(),
    result: z.record(z.string(), z.unknown()),
  }),
  activity: (_i, d) => `Carried out a ${d?.kind ?? 'reviewed'} plan`,
  run: (ctx, input) => confirmPlan(ctx, ctx.caller, input.planId),
});
