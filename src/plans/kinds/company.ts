// Plan kind `create_company` (R-SITE-3): the plan carries the reviewed company name and is
// anchored to the connection's own website, whose owner (and the connection's creator) approves it.
import { z } from 'zod';
import type { SiteCtx } from '../../domain/context.js';
import { sha256OfCanonicalJson } from '../../kernel/fingerprint.js';
import { checkCompanyName, createCompany } from '../../domain/workspace/create-company.js';
import { type PlanTicket, createPlan } from '../store.js';
import { defineKind } from './types.js';

const CompanySubject = z.object({ name: z.string() });
type CompanySubject = z.infer<typeof CompanySubject>;

const revisionOf = (name: string) => `company:${sha256OfCanonicalJson({ name })}`;

export const createCompanyKind = defineKind<CompanySubject>({
  kind: 'create_company',
  rule: {
    name: 'confirm_pending_action (create company)',
    scope: 'workspace:write',
    area: 'workspace',
    role: 'owner',
  },
  subject: CompanySubject,
  revision: async (_ctx, s) => revisionOf(s.name),
  review: (s) => ({
    title: `Create the company "${s.name}"`,
    facts: [
      { label: 'Company name', value: s.name },
      { label: 'Owner', value: 'You' },
      {
        label: 'What is created',
        value: 'A new, separate company on the free plan, with you as its only member.',
      },
      {
        label: 'What is not created',
        value:
          'No website, no credits, no trial, no monthly credit reset, nothing in a payment system; nothing is charged.',
      },
    ],
  }),
  execute: (ctx, s) => createCompany(ctx, s.name),
});

export async function prepareCreateCompany(ctx: SiteCtx, name: string): Promise<PlanTicket> {
  const clean = checkCompanyName(name);
  return createPlan(ctx, 'create_company', {
    subject: { name: clean },
    pinnedRevision: revisionOf(clean),
    summary: `Create a new company "${clean}" on the free plan, owned by you.`,
  });
}
