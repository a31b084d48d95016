// Domain tools (R-DOM-1, R-DOM-2): owner-only (the gate enforces role 'owner'),
// named by hostname, never by id. Buying, renewing, transferring and removing are absent on purpose.
import { z } from 'zod';
import { connectDomain, listDomains, setPrimaryDomain } from '../../domain/domains/connect.js';
import { defineTool } from '../define-tool.js';
import { plural } from '../../kernel/plural.js';

const domainsRule = { scope: 'domain:write', area: 'domains', role: 'owner' } as const;
const Hostname = z.string().min(1).max(300).describe('The bare address, such as www.example.com.');
const Domain = z.object({
  hostname: z.string(),
  status: z.string(),
  primary: z.boolean(),
  lastCheckedAt: z.string().nullable(),
  verifiedAt: z.string().nullable(),
});
const Record_ = z.object({
  purpose: z.enum(['verification', 'routing']),
  type: z.string(),
  name: z.string(),
  value: z.string(),
  found: z.boolean(),
});

export const list_domains = defineTool({
  name: 'list_domains',
  title: 'List domains',
  description:
    'The website’s connected domains by hostname, with verification status and which one is primary.',
  ...domainsRule,
  annotations: { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  transaction: 'none',
  input: z.object({}),
  output: z.object({ domains: z.array(Domain) }),
  activity: (_i, d) => `Listed ${plural(d?.domains.length ?? 0, 'domain')}`,
  run: (ctx) => listDomains(ctx),
});

export const connect_domain = defineTool({
  name: 'connect_domain',
  title: 'Connect a domain',
  description:
    'Connects an address the business already owns (it never buys one). Returns the DNS records to add and a next step. Call it again with the same hostname to re-check: it answers with the records still needed, or verified.',
  ...domainsRule,
  bucket: { key: 'connect_domain', perMinute: 30 },
  // DNS look-ups happen here; no transaction is held open across them (src/domain/domains/connect.ts).
  transaction: 'own',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: true },
  input: z.object({ hostname: Hostname }),
  output: Domain.extend({
    created: z.boolean(),
    records: z.array(Record_),
    recordsNeeded: z.array(Record_),
    nextStep: z.string(),
  }),
  activity: (_i, d) =>
    d
      ? `${d.created ? 'Connected' : 'Re-checked'} a domain: ${d.status}, ${plural(d.recordsNeeded.length, 'record')} needed`
      : 'Connected a domain',
  run: (ctx, input) => connectDomain(ctx, ctx.services.dns, input.hostname),
});

export const set_primary_domain = defineTool({
  name: 'set_primary_domain',
  title: 'Set the primary domain',
  description:
    'Makes one verified, connected hostname the canonical address of the website; every other connected address redirects to it (301).',
  ...domainsRule,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.object({ hostname: Hostname }),
  output: z.object({ hostname: z.string(), primary: z.literal(true), redirectsFrom: z.array(z.string()) }),
  activity: (_i, d) =>
    `Set the primary domain (${plural(d?.redirectsFrom.length ?? 0, 'other domain')} redirecting to it)`,
  run: (ctx, input) => setPrimaryDomain(ctx, input.hostname),
});
