// A website visitor for tests: undici with its own source address on the loopback network (Linux
// routes all of 127.0.0.0/8 to lo) and its own user agent, so tests can tell visitors apart and
// scan the database for exactly these values. Also reads the published site's form fields.
import { and, count, eq, ne } from 'drizzle-orm';
import { Agent, fetch } from 'undici';
import type { Db } from '../../src/db/client.js';
import { analyticsEvents, bookings, leads, mailOutbox } from '../../src/db/schema.js';

export const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

export type Visitor = ReturnType<typeof visitor>;

export function visitor(opts: { address?: string; userAgent?: string } = {}) {
  const dispatcher = new Agent({ localAddress: opts.address ?? '127.0.0.1' });
  const ua = opts.userAgent ?? BROWSER_UA;
  const headers = (extra: Record<string, string> = {}) => ({ ...(ua ? { 'user-agent': ua } : {}), ...extra });
  return {
    async get(url: string, extra: Record<string, string> = {}, method = 'GET') {
      const res = await fetch(url, { dispatcher, method, headers: headers(extra), redirect: 'manual' });
      return { status: res.status, headers: res.headers, html: await res.text() };
    },
    async post(url: string, form: Record<string, string>, extra: Record<string, string> = {}) {
      const res = await fetch(url, {
        dispatcher,
        method: 'POST',
        headers: headers({ 'content-type': 'application/x-www-form-urlencoded', ...extra }),
        body: new URLSearchParams(form).toString(),
        redirect: 'manual',
      });
      return { status: res.status, headers: res.headers, html: await res.text() };
    },
    raw: (url: string, init: Parameters<typeof fetch>[1]) =>
      fetch(url, {
        dispatcher,
        redirect: 'manual',
        ...init,
        headers: headers(init?.headers as Record<string, string>),
      }),
    close: () => dispatcher.close(),
  };
}

/** Visitors from distinct addresses `<prefix>.1`, `<prefix>.2`…, closed together. */
export function crowd(prefix: string) {
  const open: Visitor[] = [];
  let n = 0;
  return {
    /** A visitor from an address no one else in this crowd uses. */
    next(userAgent?: string) {
      n += 1;
      return this.at(`${prefix}.${n}`, userAgent);
    },
    at(address: string, userAgent?: string) {
      const v = visitor({ address, userAgent });
      open.push(v);
      return v;
    },
    close: () => Promise.all(open.map((v) => v.close())),
  };
}

/**
 * Opens a page, lets `typing()` move the server's clock past the fill time, and sends the form whose
 * action contains `action` with its hidden fields, an empty honeypot and `fields`.
 */
export async function fillAndSend(
  v: Visitor,
  origin: string,
  pageUrl: string,
  action: string,
  fields: Record<string, string>,
  typing: () => void,
) {
  const page = await v.get(pageUrl);
  if (page.status !== 200) throw new Error(`${pageUrl} answered ${page.status}`);
  const f = formOf(page.html, action);
  typing();
  return v.post(origin + f.action, { ...f.hidden, website: '', ...fields });
}

/** The hidden fields of the first form on a page whose action contains `action`. */
export function formOf(html: string, action: string) {
  const forms = html.split('<form ').slice(1);
  const form = forms.find((f) => new RegExp(`action="[^"]*${action.replace(/[/]/g, '\\/')}`).test(f));
  if (!form) throw new Error(`no form posting to ${action}`);
  const action_ = /action="([^"]*)"/.exec(form)![1]!.replace(/&amp;/g, '&');
  const hidden: Record<string, string> = {};
  for (const m of form.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g))
    hidden[m[1]!] = m[2]!;
  return { action: action_, hidden };
}

/** What a website has that a submission could have written; equal before and after = nothing written. */
export async function writesOf(db: Db, websiteId: string) {
  const n = async (q: Promise<Array<{ n: number | string }>>) => Number((await q)[0]?.n ?? 0);
  return {
    leads: await n(db.select({ n: count() }).from(leads).where(eq(leads.websiteId, websiteId))),
    bookings: await n(db.select({ n: count() }).from(bookings).where(eq(bookings.websiteId, websiteId))),
    mail: await n(db.select({ n: count() }).from(mailOutbox).where(eq(mailOutbox.websiteId, websiteId))),
    /** Form submissions and booking requests (page views are what tests cause by opening forms). */
    submissions: await n(
      db
        .select({ n: count() })
        .from(analyticsEvents)
        .where(and(eq(analyticsEvents.websiteId, websiteId), ne(analyticsEvents.kind, 'pageview'))),
    ),
  };
}
