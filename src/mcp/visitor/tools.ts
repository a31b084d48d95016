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

type Answer =
  | { data: Record<string, unknown>; path?: string }
  | { error: string; data?: Record<string, unknown> };

type Args = Record<string, string | undefined>;

type VisitorTool = {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  annotations: {
    readOnlyHint: boolean;
    destructiveHint: boolean;
    idempotentHint: boolean;
    openWorldHint: boolean;
  };
  /** Every input of these tools is text: the parsed arguments, by name. */
  run(call: VisitorCall, input: Args): Promise<Answer>;
};

const READ = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const SEND = { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true };

// Caps on what a tool is handed; the domain's field rules (src/domain/crm/visitor-fields.ts) decide
// what is acceptable within them and word the answer.
const Text = (max: number) => z.string().max(max);

const refused = (o: Exclude<Outcome, { outcome: 'accepted' }>, what: string): Answer => {
  switch (o.outcome) {
    case 'invalid':
      return {
        error: `Not sent: ${Object.entries(o.errors)
          .map(([k, v]) => `${k}: ${v}`)
          .join(' ')}`,
        data: { errors: o.errors },
      };
    case 'rate_limited':
      return {
        error: `Not sent: too many ${what} came from this network or to this website just now. Try again in ${o.seconds} s.`,
        data: { retryAfterSeconds: o.seconds },
      };
    case 'not_found':
      return { error: `Not sent: this website does not take ${what} here.` };
    default:
      return { error: 'Not sent.' };
  }
};

export const VISITOR_TOOLS: VisitorTool[] = [
  {
    name: 'get_business',
    title: 'About this business',
    description:
      'What this business is: its name, description, the contact details its website shows, its time zone, its pages, and whether it takes messages and booking requests here.',
    input: z.object({}),
    annotations: READ,
    async run({ site, at }) {
      const { view } = site;
      return {
        data: {
          name: view.name,
          description: businessDescription(view),
          website: `${at.siteUrl}/`,
          timeZone: view.timeZone,
          contact: shownContacts(view),
          pages: pageIndex(view),
          takesMessages: takesMessages(view),
          takesBookingRequests: site.services.some((s) => s.bookable),
        },
      };
    },
  },
  {
    name: 'read_page',
    title: 'Read a page',
    description:
      'One page of the website as Markdown. path: as get_business lists it ("/" is the home page).',
    input: z.object({ path: Text(200).default('/') }),
    annotations: READ,
    async run({ site, at }, input) {
      const asked = input.path ?? '/';
      const page = livePage(site.view, asked);
      if (!page) return { error: `No page at ${asked.slice(0, 60)}; get_business lists the pages.` };
      const path = sitePathOf(site.view, page);
      return { data: { path, title: page.title, markdown: pageMarkdown(page, at) }, path };
    },
  },
  {
    name: 'list_offerings',
    title: 'Services and products',
    description:
      'The services (with duration and price) and products this business offers publicly. A service marked bookable can be requested with request_booking.',
    input: z.object({}),
    annotations: READ,
    async run({ site }) {
      return {
        data: { timeZone: site.view.timeZone, services: site.services, products: site.products },
      };
    },
  },
  {
    name: 'search_site',
    title: 'Search the website',
    description: "Searches the text of the website's pages; returns the matching pages with a snippet each.",
    input: z.object({ query: Text(200).min(1) }),
    annotations: READ,
    async run({ site, at }, input) {
      return { data: { results: searchPages(site.view, input.query ?? '', at) } };
    },
  },
  {
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
    annotations: SEND,
    async run({ site, visitor, deps }, input) {
      const sectionId = firstContactForm(site.view);
      if (!sectionId)
        return { error: 'Not sent: this website takes no messages; get_business shows how to reach it.' };
      const fields = {
        name: input.name ?? '',
        email: input.email ?? '',
        phone: input.phone ?? '',
        message: input.message ?? '',
      };
      const o = await submitContactForm(deps, {
        websiteId: site.view.websiteId,
        fields,
        visitor,
        channel: 'assistant',
        sectionId,
      });
      if (o.outcome !== 'accepted') return refused(o, 'messages');
      return {
        data: {
          sent: true,
          note: `${site.view.name} has the message and will reply to ${fields.email.trim()}.`,
        },
      };
    },
  },
  {
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
    annotations: SEND,
    async run({ site, visitor, deps }, input) {
      const { serviceId, ...rest } = input;
      const fields: Record<string, string> = {};
      for (const [k, v] of Object.entries(rest)) fields[k] = v ?? '';
      const o = await submitBookingRequest(deps, {
        websiteId: site.view.websiteId,
        fields,
        visitor,
        channel: 'assistant',
        serviceId: serviceId ?? '',
      });
      if (o.outcome !== 'accepted') return refused(o, 'booking requests for that service');
      return {
        data: {
          requested: true,
          note: `A request, not yet a booking: ${site.view.name} will email ${(fields.email ?? '').trim()} to confirm the time or suggest another.`,
        },
      };
    },
  },
];

/** Runs one tool; every failure is a result the assistant can read (MCP tools spec, "error handling"). */
export async function runVisitorTool(
  call: VisitorCall,
  name: string,
  args: unknown,
): Promise<{ result: CallToolResult; path: string }> {
  const tool = VISITOR_TOOLS.find((t) => t.name === name)!;
  const parsed = tool.input.safeParse(args ?? {});
  if (!parsed.success) {
    const text = parsed.error.issues.map((i) => `${i.path.join('.') || 'arguments'}: ${i.message}`).join(' ');
    return {
      result: { isError: true, content: [{ type: 'text', text: `Invalid arguments: ${text}` }] },
      path: '/',
    };
  }
  const answer = await tool.run(call, parsed.data as Args);
  if ('error' in answer) {
    return {
      result: {
        isError: true,
        content: [{ type: 'text', text: answer.error }],
        ...(answer.data ? { structuredContent: answer.data } : {}),
      },
      path: '/',
    };
  }
  return {
    result: {
      content: [{ type: 'text', text: JSON.stringify(answer.data) }],
      structuredContent: answer.data,
    },
    path: answer.path ?? '/',
  };
}
