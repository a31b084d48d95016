// update_business_name (R-TOOL-9): the workspace's business name (companies.name),
// trimmed, inner whitespace collapsed, invisible/format characters removed, 1-100 characters.
import { eq } from 'drizzle-orm';
import { companies } from '../../db/schema.js';
import type { SiteCtx } from '../context.js';
import { invalidInput } from '../../kernel/errors.js';
import { stripInvisible } from '../untrusted.js';

export const BUSINESS_NAME_MAX = 100;

/** The stored form of a business name, or an invalid_input refusal. Pure. */
export function normaliseBusinessName(raw: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what we refuse.
  if (/[\u0000-\u001f\u007f-\u009f]/.test(raw.replace(/[\t\n\r]/g, ' '))) {
    throw invalidInput('A business name cannot contain control characters.');
  }
  const name = stripInvisible(raw).replace(/\s+/g, ' ').trim();
  if (!name) throw invalidInput('The business name cannot be empty.');
  if ([...name].length > BUSINESS_NAME_MAX) {
    throw invalidInput(`The business name can be at most ${BUSINESS_NAME_MAX} characters.`);
  }
  return name;
}

export async function updateBusinessName(ctx: SiteCtx, raw: string) {
  const name = normaliseBusinessName(raw);
  const [row] = await ctx.tx
    .update(companies)
    .set({ name })
    .where(eq(companies.id, ctx.website.companyId))
    .returning({ name: companies.name });
  return { name: row!.name };
}
