// The tools a visitor's AI assistant sees on a published site's endpoint: reads of the live site and
// two actions that go through the site's own form path (src/domain/crm/submission.ts: the same field
// rules, limits and owner email; the source says it came from an assistant). None of them reaches an
// owner tool, the draft, or anything about the business's other customers.
import type { CallToolResult } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Visitor } from '../../domain/analytics/record.js';
import { submitBookingRequest } from '../../domain/crm/booking-request.js';
import { firstContactForm, submitContactForm } from '../../domain/crm/contact-form.js';
import type { Outcome, VisitorDeps } from '../../domain/crm/submission.js';
import type { RequestAllowance } from '../../domain/visitor-agent/visits.js';
import {
  type SiteAddress,
  livePage,
  pageMarkdown,
  searchPages,
} from '../../domain/visitor-agent/markdown.js';
import {
  type VisitorSite,
  businessDescription,
  pageIndex,
  shownContacts,
  takesMessages,
} from '../../domain/visitor-agent/site.js';
import { sitePathOf } from '../../domain/sites/view.js';
import { isUnavailable } from '../../db/failures.js';
import { Refusal, invalidInput, unavailable } from '../../kernel/errors.js';
import { type PublicToolDef, defineTool } from '../define-tool.js';
import { okResult, refusalResult } from '../envelope.js';

/**
 * What one request to the endpoint knows: the live site, where it is, who asks (for limits only), and
 * its share of the sender's allowance, from which each of its calls is taken.
 */
export type VisitorCall = {
  site: VisitorSite;
  at: SiteAddress;
  visitor: Visitor;
  deps: VisitorDeps;
  allowance: RequestAllowance;
};

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const SEND = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

// Caps on what a tool is handed; the domain's field rules (src/domain/crm/visitor-fields.ts) decide
// what is acceptable within them and word the answer.
const Text = (max: number) => z.string().max(max);

/** A submission the site's form path did not accept, as the refusal the assistant reads. */
function refused(o: Exclude<Outcome, { outcome: 'accepted' }>, what: string): Refusal {
  switch (o.outcome) {
    case 'invalid':
      return invalidInput(
        `Not sent: ${Object.entries(o.errors)
          .map(([k, v]) => `${k}: ${v}`)
          .join(' ')}`,
        'Correct those fields with the visitor and send again.',
      );
    case 'rate_limited':
      return new Refusal(
        'rate_limited',
        `Not sent: too many ${what} came from this network or to this website just now.`,
        `Try again in ${o.seconds} s.`,
      );
    case 'not_found':
      return new Refusal(
        'not_found',
        `Not sent: this website does not take ${what} here.`,
        'get_business shows how to reach the business.',
      );
    default:
      return invalidInput('Not sent.');
  }
}

const Page = z.object({ path: z.string(), title: z.string(), kind: z.string() });
const Service = z.object({
  serviceId: z.string(),
  name: z.string(),
  description: z.string(),
  durationMinutes: z.number().nullable(),
  price: z.string().nullable(),
  bookable: z.boolean(),
});

export const VISITOR_TOOLS = [
  defineTool({
    audience: 'public',
    name: 'get_business',
    title: 'About this business',
    description:
      'What this business is: its name, description, the contact details its website shows, its time zone, its pages, and whether it takes messages and booking requests here.',
    input: z.object({}),
    output: z.object({
      name: z.string(),
      description: z.string(),
      website: z.string(),
      timeZone: z.string(),
      contact: z.object({
        emails: z.array(z.string()),
        phones: z.array(z.string()),
        addresses: z.array(z.string()),
      }),
      pages: z.array(Page),
      takesMessages: z.boolean(),
      takesBookingRequests: z.boolean(),
    }),
    annotations: READ,
    async run({ site, at }: VisitorCall) {
      const { view } = site;
      return {
        name: view.name,
        description: businessDescription(view),
        website: `${at.siteUrl}/`,
        timeZone: view.timeZone,
        contact: shownContacts(view),
        pages: pageIndex(view),
        takesMessages: takesMessages(view),
        takesBookingRequests: site.services.some((s) => s.bookable),
      };
    },
  }),
  defineTool({
    audience: 'public',
    name: 'read_page',
    title: 'Read a page',
    description:
      'One page of the website as Markdown. path: as get_business lists it ("/" is the home page).',
    input: z.object({ path: Text(200).default('/') }),
    output: z.object({ path: z.string(), title: z.string(), markdown: z.string() }),
    annotations: READ,
    async run({ site, at }: VisitorCall, input) {
      const page = livePage(site.view, input.path);
      if (!page) {
        throw new Refusal(
          'not_found',
          `No page at ${input.path.slice(0, 60)}.`,
          'get_business lists the pages.',
        );
      }
      return { path: sitePathOf(site.view, page), title: page.title, markdown: pageMarkdown(page, at) };
    },
  }),
  defineTool({
    audience: 'public',
    name: 'list_offerings',
    title: 'Services and products',
    description:
      'The services (with duration and price) and products this business offers publicly. A service marked bookable can be requested with request_booking.',
    input: z.object({}),
    output: z.object({
      timeZone: z.string(),
      services: z.array(Service),
      products: z.array(z.object({ name: z.string(), description: z.string(), price: z.string() })),
    }),
    annotations: READ,
    async run({ site }: VisitorCall) {
      return { timeZone: site.view.timeZone, services: site.services, products: site.products };
    },
  }),
  defineTool({
    audience: 'public',
    name: 'search_site',
    title: 'Search the website',
    description:
      "Searches the text of the website's pages and of its bookable services' pages; returns the matching pages with a snippet each.",
    input: z.object({ query: Text(200).min(1) }),
    output: z.object({
      results: z.array(z.object({ path: z.string(), title: z.string(), snippet: z.string() })),
    }),
    annotations: READ,
    async run({ site, at }: VisitorCall, input) {
      return { results: searchPages(site.view, input.query, at, site.services) };
    },
  }),
  defineTool({
    audience: 'public',
    name: 'send_message',
    title: 'Send the business a message',
    description:
      "Sends the business a message on the visitor's behalf, as its contact form does: it reaches the owner by email and the owner replies to the email given. Only with the visitor's consent and their own name and email.",
    input: z.object({
      name: Text(1_000),
      email: Text(1_000),
      phone: Text(1_000).optional(),
      message: Text(20_000),
    }),
    output: z.object({ sent: z.literal(true), note: z.string() }),
    annotations: SEND,
    async run({ site, visitor, deps }: VisitorCall, input) {
      const sectionId = firstContactForm(site.view);
      if (!sectionId) {
        throw new Refusal(
          'not_found',
          'Not sent: this website takes no messages.',
          'get_business shows how to reach the business.',
        );
      }
      const fields = {
        name: input.name,
        email: input.email,
        phone: input.phone ?? '',
        message: input.message,
      };
      const o = await submitContactForm(deps, {
        websiteId: site.view.websiteId,
        fields,
        visitor,
        channel: 'assistant',
        sectionId,
      });
      if (o.outcome !== 'accepted') throw refused(o, 'messages');
      return {
        sent: true as const,
        note: `${site.view.name} has the message and will reply to ${fields.email.trim()}.`,
      };
    },
  }),
  defineTool({
    audience: 'public',
    name: 'request_booking',
    title: 'Request a booking',
    description:
      "Asks the business to book a bookable service (list_offerings) at a preferred date and time, read in the business's time zone. It is a request, not a booking: the business confirms by email. Only with the visitor's consent and their own name and email.",
    input: z.object({
      serviceId: Text(64),
      date: Text(20).describe('YYYY-MM-DD, in the business’s time zone'),
      time: Text(20).describe('HH:MM, 24-hour, in the business’s time zone'),
      name: Text(1_000),
      email: Text(1_000),
      note: Text(10_000).optional(),
    }),
    output: z.object({ requested: z.literal(true), note: z.string() }),
    annotations: SEND,
    async run({ site, visitor, deps }: VisitorCall, input) {
      const { serviceId, ...rest } = input;
      const fields: Record<string, string> = {};
      for (const [k, v] of Object.entries(rest)) fields[k] = v ?? '';
      const o = await submitBookingRequest(deps, {
        websiteId: site.view.websiteId,
        fields,
        visitor,
        channel: 'assistant',
        serviceId,
      });
      if (o.outcome !== 'accepted') throw refused(o, 'booking requests for that service');
      return {
        requested: true as const,
        note: `A request, not yet a booking: ${site.view.name} will email ${(fields.email ?? '').trim()} to confirm the time or suggest another.`,
      };
    },
  }),
] as const;

export type VisitorTool = (typeof VISITOR_TOOLS)[number];

/** The tool of that name, or undefined (an unknown name is answered where it is looked up). */
export const visitorTool = (name: string): PublicToolDef | undefined =>
  (VISITOR_TOOLS as readonly PublicToolDef[]).find((t) => t.name === name);

/**
 * Runs one tool; every refusal is a result the assistant can read (MCP tools spec, "error handling"),
 * in the owner tools' envelope. `path` is the page the call is counted against in analytics.
 */
export async function runVisitorTool(
  call: VisitorCall,
  tool: PublicToolDef,
  args: unknown,
): Promise<{ result: CallToolResult; path: string }> {
  const parsed = tool.input.strict().safeParse(args ?? {});
  if (!parsed.success) {
    const issues = parsed.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.') || '(input)'}: ${i.message}`)
      .join('; ');
    return { result: refusalResult(invalidInput(`Invalid input for ${tool.name}: ${issues}`)), path: '/' };
  }
  try {
    const data = (await (tool as PublicToolDef<z.ZodObject, z.ZodType, VisitorCall>).run(
      call,
      parsed.data,
    )) as Record<string, unknown>;
    return { result: okResult(data), path: typeof data.path === 'string' ? data.path : '/' };
  } catch (err) {
    const refusal = err instanceof Refusal ? err : isUnavailable(err) ? unavailable() : null;
    if (!refusal) throw err;
    return { result: refusalResult(refusal), path: '/' };
  }
}
