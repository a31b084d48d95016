// Creating a company (R-SITE-3): plan free, no credits, no website, no monthly credit reset,
// no trial, nothing in a payment system. The connection's creator becomes its owner.
import { newId } from '../../kernel/ids.js';
import { companies, companyMembers } from '../../db/schema.js';
import type { WorkspaceCtx } from '../context.js';
import { invalidInput } from '../../kernel/errors.js';

export function checkCompanyName(name: string): string {
  const clean = name.replace(/\s+/g, ' ').trim();
  if (clean.length < 2 || clean.length > 120) throw invalidInput('A company name needs 2 to 120 characters.');
  return clean;
}

export async function createCompany(ctx: WorkspaceCtx, name: string) {
  const id = newId('co');
  await ctx.tx.insert(companies).values({
    id,
    name: checkCompanyName(name),
    plan: 'free',
    siteLimit: 1,
    credits: 0,
    monthlyCreditReset: false,
    trialEndsAt: null,
    paymentCustomerId: null,
    aiConsent: false,
    advancedEditor: false,
    agencyId: null,
    withheldAreas: [],
    createdAt: ctx.now,
  });
  await ctx.tx.insert(companyMembers).values({ companyId: id, userId: ctx.actor.userId, role: 'owner' });
  return { companyId: id, name: checkCompanyName(name), plan: 'free', credits: 0, websites: 0 };
}
