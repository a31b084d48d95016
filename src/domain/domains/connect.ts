// Connecting domains (R-DOM-1, R-DOM-2): list_domains, connect_domain and
// set_primary_domain. Owner-only is the gate's job (the tools declare role 'owner'). Domains are
// named by hostname, never by id; a hostname of another site gets exactly the refusal a hostname
// that exists nowhere gets. Buying, renewing, transferring and removing are absent by design.
//
// connect_domain is idempotent: the first call records the hostname with a verification token; every
// call (first or repeat) re-checks DNS and answers with the records still needed and a next step.
// It runs outside a long transaction (the tool declares transaction: 'own') so a slow DNS answer never
// holds database locks: the look-ups first, then one short transaction for every write.
//
// Squatting (R-DOM-3): anyone may claim a hostname as pending, so a pending claim is not
// ownership. It lapses after PENDING_CLAIM_DAYS without verification, and a claimant who proves
// control — the TXT record `_sitegate-verify.<host>` holding the token of *their* claim, checked with
// the same resolver — takes the hostname from another site's unproven claim. A verified domain is
// never taken. The token of a would-be claim is derived from (website, hostname), so the refusal can
// name it before any row exists. Apex or subdomain is decided by the public suffix list (tldts).
import { createHash } from 'node:crypto';
import { and, asc, count, eq, ne } from 'drizzle-orm';
import { getDomain } from 'tldts';
import { faultPoint } from '../../kernel/fault.js';
import { newId } from '../../kernel/ids.js';
import { domains } from '../../db/schema.js';
import type { AnySiteCtx, DirectSiteCtx, SiteCtx } from '../context.js';
import { dbOf } from '../context.js';
import { Refusal, invalidInput } from '../../kernel/errors.js';
import type { DnsChecker } from './dns-check.js';
import { normaliseHostname } from './hostname.js';
import { transaction, workspaceOf } from '../../db/transactions.js';

const VERIFY_PREFIX = '_sitegate-verify';
/** A bound on connected addresses per website, so unverified claims cannot pile up. */
const MAX_DOMAINS_PER_SITE = 20;
const TOKEN_PREFIX = 'sitegate-verify=';

/** Days an unverified claim holds a hostname before anyone else may claim it. */
export const PENDING_CLAIM_DAYS = 7;

/** The verification token of this website's claim on a hostname (stable, so it can be named early). */
export function claimToken(websiteId: string, hostname: string): string {
  return createHash('sha256').update(`sitegate-claim\n${websiteId}\n${hostname}`).digest('hex').slice(0, 32);
}

/**
 * One refusal for "another site's" and "nowhere" (R-DOM-1): identical code and message, and a
 * hint naming the proof that wins over an unverified claim (which only the real owner can publish).
 */
function unavailable(websiteId: string, hostname: string): Refusal {
  return new Refusal(
    'not_found',
    `The domain ${hostname} is not available to this website.`,
    `Call list_domains to see this website’s domains. If the business owns ${hostname} and it is not connected yet, prove it: add a TXT record "${VERIFY_PREFIX}.${hostname}" with value "${TOKEN_PREFIX}${claimToken(websiteId, hostname)}", then call connect_domain again.`,
  );
}

/** True when this apex (public-suffix list, ICANN section) needs an A record rather than a CNAME. */
export function isApex(hostname: string): boolean {
  return getDomain(hostname, { allowPrivateDomains: false }) === hostname;
}

type DomainRow = typeof domains.$inferSelect;

const view = (d: DomainRow) => ({
  hostname: d.hostname,
  status: d.status,
  primary: d.isPrimary,
  lastCheckedAt: d.lastCheckedAt?.toISOString() ?? null,
  verifiedAt: d.verifiedAt?.toISOString() ?? null,
});

export async function listDomains(ctx: DirectSiteCtx) {
  const rows = await ctx.db
    .select()
    .from(domains)
    .where(eq(domains.websiteId, ctx.website.id))
    .orderBy(asc(domains.createdAt), asc(domains.hostname));
  return { domains: rows.map(view) };
}

async function byHostname(ctx: AnySiteCtx, hostname: string) {
  const [row] = await dbOf(ctx).select().from(domains).where(eq(domains.hostname, hostname));
  return row;
}

export type DnsRecord = {
  purpose: 'verification' | 'routing';
  type: string;
  name: string;
  value: string;
  found: boolean;
};

/** The records a hostname needs and which are in place now. */
async function checkRecords(
  dns: DnsChecker,
  target: { cname: string; a: string },
  d: { hostname: string; verificationToken: string },
): Promise<DnsRecord[]> {
  const txtName = `${VERIFY_PREFIX}.${d.hostname}`;
  const token = `${TOKEN_PREFIX}${d.verificationToken}`;
  const apex = isApex(d.hostname);
  const [txt, a, cname] = await Promise.all([dns.txt(txtName), dns.a(d.hostname), dns.cname(d.hostname)]);
  const routed = cname.includes(target.cname) || a.includes(target.a);
  return [
    { purpose: 'verification', type: 'TXT', name: txtName, value: token, found: txt.includes(token) },
    apex
      ? { purpose: 'routing', type: 'A', name: d.hostname, value: target.a, found: routed }
      : { purpose: 'routing', type: 'CNAME', name: d.hostname, value: target.cname, found: routed },
  ];
}

/** Addresses that belong to the service itself can never be connected as a customer's domain. */
function assertNotOurs(ctx: AnySiteCtx, hostname: string): void {
  const ours = [
    ctx.services.config.siteCnameTarget,
    new URL(ctx.services.config.baseUrl).hostname.toLowerCase(),
  ];
  if (ours.some((o) => hostname === o || hostname.endsWith(`.${o}`))) {
    throw invalidInput(`${hostname} is an address of this service, not one the business owns.`);
  }
}

/**
 * Another site's claim on `hostname`: kept (refused) unless it is unverified and either lapsed or
 * beaten by this site's DNS proof. Decides only; the claim is removed in the committing transaction.
 */
async function contest(ctx: AnySiteCtx, dns: DnsChecker, held: DomainRow): Promise<void> {
  const refuse = unavailable(ctx.website.id, held.hostname);
  if (held.status === 'verified') throw refuse;
  const lapsed = held.createdAt.getTime() + PENDING_CLAIM_DAYS * 86_400_000 <= ctx.now.getTime();
  if (!lapsed) {
    const proof = `${TOKEN_PREFIX}${claimToken(ctx.website.id, held.hostname)}`;
    const txt = await dns.txt(`${VERIFY_PREFIX}.${held.hostname}`);
    if (!txt.includes(proof)) throw refuse;
  }
}

/**
 * Every DNS look-up comes first, then one short transaction writes what they decided (the contested
 * claim removed, this site's claim inserted, the check recorded) together with the call's Activity
 * line (`ctx.commitLine`), so a committed change never lacks its line.
 */
export async function connectDomain(ctx: DirectSiteCtx, dns: DnsChecker, raw: string) {
  const hostname = normaliseHostname(raw);
  assertNotOurs(ctx, hostname);
  const found = await byHostname(ctx, hostname);
  const own = found?.websiteId === ctx.website.id ? found : undefined;
  const taken = found && !own ? found : undefined;
  if (taken) await contest(ctx, dns, taken);
  if (!own) {
    const [n] = await ctx.db
      .select({ n: count() })
      .from(domains)
      .where(eq(domains.websiteId, ctx.website.id));
    if (Number(n?.n ?? 0) >= MAX_DOMAINS_PER_SITE) {
      throw new Refusal(
        'conflict',
        `This website already has ${MAX_DOMAINS_PER_SITE} connected addresses, the most it can have.`,
        'No tool or page removes an address: use one already connected (list_domains, set_primary_domain).',
      );
    }
  }
  const cfg = ctx.services.config;
  const token = own?.verificationToken ?? claimToken(ctx.website.id, hostname);
  const records = await checkRecords(
    dns,
    { cname: cfg.siteCnameTarget, a: cfg.siteARecord },
    { hostname, verificationToken: token },
  );
  const allFound = records.every((r) => r.found);

  // This site's workspace, and the one of the site whose unproven claim is contested, if any.
  const lockFirst = workspaceOf(ctx.website.id, ...(taken ? [taken.websiteId] : []));
  const answer = await transaction(ctx.db, lockFirst, async (tx) => {
    if (taken) {
      // Only that exact unverified row goes: a claim verified meanwhile is left alone.
      await tx
        .delete(domains)
        .where(
          and(
            eq(domains.id, taken.id),
            eq(domains.websiteId, taken.websiteId),
            eq(domains.status, 'pending'),
          ),
        );
    }
    if (!own) {
      await tx
        .insert(domains)
        .values({
          id: newId('dom'),
          websiteId: ctx.website.id,
          hostname,
          status: 'pending',
          verificationToken: token,
          createdAt: ctx.now,
        })
        .onConflictDoNothing({ target: domains.hostname });
    }
    const [row] = await tx.select().from(domains).where(eq(domains.hostname, hostname));
    if (!row || row.websiteId !== ctx.website.id) throw unavailable(ctx.website.id, hostname);
    const verifiedNow = allFound && row.status !== 'verified';
    const [updated] = await tx
      .update(domains)
      .set({
        lastCheckedAt: ctx.now,
        ...(verifiedNow ? { status: 'verified', verifiedAt: ctx.now } : {}),
      })
      .where(and(eq(domains.id, row.id), eq(domains.websiteId, ctx.website.id)))
      .returning();
    const d = updated ?? row;
    const needed = records.filter((r) => !r.found);
    const result = {
      ...view(d),
      created: !own,
      records,
      recordsNeeded: needed,
      nextStep: nextStep(d, needed),
    };
    await ctx.commitLine?.(tx, result);
    return result;
  });
  faultPoint('after-own-commit');
  return answer;
}

function nextStep(d: DomainRow, needed: DnsRecord[]): string {
  if (!needed.length) {
    return d.isPrimary
      ? `${d.hostname} is verified and is the primary address.`
      : `${d.hostname} is verified. Call set_primary_domain with it to make it the address every other one redirects to.`;
  }
  const list = needed.map((r) => `${r.type} record "${r.name}" with value "${r.value}"`).join(' and ');
  const also =
    d.status === 'verified'
      ? ' The domain stays verified, but visitors may not reach the site until it is fixed.'
      : '';
  return `At the company where ${d.hostname} is registered, add a ${list}. DNS changes can take from a few minutes to a few hours; then call connect_domain with the same hostname again to re-check.${also}`;
}

export async function setPrimaryDomain(ctx: SiteCtx, raw: string) {
  const hostname = normaliseHostname(raw);
  const [row] = await ctx.tx
    .select()
    .from(domains)
    .where(and(eq(domains.hostname, hostname), eq(domains.websiteId, ctx.website.id)))
    .for('update');
  if (!row) throw unavailable(ctx.website.id, hostname);
  if (row.status !== 'verified') {
    throw new Refusal(
      'conflict',
      `${hostname} is not verified yet, so it cannot become the primary address.`,
      'Call connect_domain with this hostname to see the DNS records still needed.',
    );
  }
  await ctx.tx
    .update(domains)
    .set({ isPrimary: false })
    .where(and(eq(domains.websiteId, ctx.website.id), ne(domains.id, row.id)));
  await ctx.tx.update(domains).set({ isPrimary: true }).where(eq(domains.id, row.id));
  const others = await ctx.tx
    .select({ hostname: domains.hostname })
    .from(domains)
    .where(and(eq(domains.websiteId, ctx.website.id), ne(domains.id, row.id)))
    .orderBy(asc(domains.hostname));
  return { hostname, primary: true as const, redirectsFrom: others.map((o) => o.hostname) };
}
