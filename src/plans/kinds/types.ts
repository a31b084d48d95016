// What every plan kind provides (R-PLAN-4, R-PLAN-7): the gate rule it is redeemed under, the
// stored subject's schema, how to compute the reviewed revision now (identically at prepare, approval
// and confirm), what the owner sees on the approval page, and the one executor that performs it.
import type { z } from 'zod';
import type { SiteCtx } from '../../domain/context.js';
import type { GateRule } from '../../gate/authorize.js';
import type { PublishReview } from '../../domain/pages/publish-review.js';

export const PLAN_KINDS = [
  'publish',
  'unpublish',
  'publish_product',
  'search_visibility',
  'grant_access',
  'send_document',
  'create_company',
] as const;
export type PlanKind = (typeof PLAN_KINDS)[number];

export function isPlanKind(s: string): s is PlanKind {
  return (PLAN_KINDS as readonly string[]).includes(s);
}

/** What the approval page shows: exactly what will happen, in the owner's words. Plain strings only. */
export type PlanReview = {
  title: string;
  facts: Array<{ label: string; value: string }>;
  list?: { heading: string; items: string[]; empty: string };
  table?: { columns: string[]; rows: string[][]; footer?: string[] };
  /** Publish: the change itself, field by field (the page marks the word-level differences). */
  publish?: PublishReview;
  /** True when GET /approvals/:id/preview shows exactly the reviewed revision. */
  preview?: boolean;
  /** The exact email that will be sent (send document). */
  email?: { to: string; subject: string; text: string };
  /** Plain sentences: what happens and what does not. */
  notes?: string[];
  /** Publish product: the product as customers will see it. */
  product?: { name: string; price: string; description: string };
  /** Moments (ISO) the page shows in the workspace's time zone. */
  when?: Array<{ label: string; at: string }>;
};

/** What a review may read besides the stored subject (never the live, possibly moved-on, state). */
export type ReviewInfo = { siteName: string };

export type PlanKindDef<S = unknown> = {
  kind: PlanKind;
  /** The gate rule of the kind: checked at prepare (by the tool) and again when redeeming. */
  rule: GateRule;
  subject: z.ZodType<S>;
  /** The reviewed revision as it is now; locks the rows it reads so nothing moves until commit. */
  revision(ctx: SiteCtx, subject: S): Promise<string>;
  review(subject: S, info: ReviewInfo): PlanReview;
  /** Performs the action. Runs once, inside the redeeming transaction, after every check passed. */
  execute(ctx: SiteCtx, subject: S): Promise<Record<string, unknown>>;
};

export function defineKind<S>(def: PlanKindDef<S>): PlanKindDef<S> {
  return def;
}
