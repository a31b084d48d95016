// The published site's form posts (R-VIS-1): /_forms/contact and /_forms/book/<service>.
// A body cap before anything is read (src/web/body-caps.ts), form data only, then one domain call; its outcome becomes a
// redirect to the thank-you page, or the same page again with the visitor's words and the reason.
import type { Context, MiddlewareHandler } from 'hono';
import { submitBookingRequest } from '../../domain/crm/booking-request.js';
import { contactTarget, submitContactForm } from '../../domain/crm/contact-form.js';
import type { Outcome } from '../../domain/crm/submission.js';
import { bodyCap } from '../body-caps.js';
import type { FormState } from '../render/forms.js';
import { renderBookingPage, renderPage } from '../render/page.js';
import { clientAddress } from '../client-address.js';
import { type SiteLoader, type SiteRef, notFound, plainPage, siteHeaders } from './site-load.js';

export function siteForms(loader: SiteLoader) {
  const { load, visitorDeps } = loader;
  const notices: Record<string, string> = {
    too_fast:
      'That was quicker than anyone can type, so nothing was sent yet. Please check your details and press the button again.',
    expired:
      'This form was open for a long time, so nothing was sent yet. Please check your details and press the button again.',
  };

  async function form(c: Context, ref: SiteRef, rest: string) {
    const type = c.req.header('content-type') ?? '';
    if (!type.startsWith('application/x-www-form-urlencoded')) {
      return plainPage(c, 415, 'Not sent', 'This form sends plain form data only.');
    }
    const body = await c.req.parseBody();
    const fields: Record<string, string> = {};
    for (const [k, v] of Object.entries(body)) if (typeof v === 'string') fields[k] = v;
    const visitor = { address: clientAddress(c), userAgent: c.req.header('user-agent') ?? '' };
    const sub = { websiteId: ref.websiteId, fields, visitor };
    const path = rest.replace(/^\/+|\/+$/g, '');
    const booking = /^_forms\/book\/([A-Za-z0-9_]{1,64})$/.exec(path);
    if (path !== '_forms/contact' && !booking) return notFound(c);
    const outcome = booking
      ? await submitBookingRequest(visitorDeps, { ...sub, serviceId: booking[1]! })
      : await submitContactForm(visitorDeps, { ...sub, sectionId: fields.section ?? '' });
    if (outcome.outcome === 'not_found') return notFound(c);
    if (outcome.outcome === 'accepted' || outcome.outcome === 'dropped') {
      return c.redirect(`${ref.basePath}/_sent/${booking ? 'booking' : 'contact'}`, 303);
    }
    // Shown again, with what the visitor typed: their words are never lost to a refusal.
    const target = booking ? booking[1]! : (fields.section ?? '');
    const { state, status } = refusal(outcome);
    const loaded = await load(ref, { target, ...state });
    if (!loaded) return notFound(c);
    siteHeaders(c);
    if (outcome.outcome === 'rate_limited') c.header('Retry-After', String(outcome.seconds));
    if (booking) {
      if (!loaded.offer?.services.some((s) => s.id === target)) return notFound(c);
      return c.html(renderBookingPage(loaded.site, loaded.offer, target), status);
    }
    const t = contactTarget(loaded.view, target);
    if (!t) return notFound(c);
    return c.html(renderPage(loaded.site, t.page), status);
  }

  function refusal(o: Exclude<Outcome, { outcome: 'accepted' | 'dropped' | 'not_found' }>): {
    state: FormState;
    status: 422 | 429;
  } {
    if (o.outcome === 'rate_limited') {
      const minutes = Math.max(1, Math.ceil(o.seconds / 60));
      return {
        status: 429,
        state: {
          values: o.values,
          errors: {},
          notice: `Too many messages came from your network or to this website just now, so this one was not sent. Please try again in about ${minutes} minute${minutes === 1 ? '' : 's'}.`,
        },
      };
    }
    if (o.outcome === 'resend')
      return { status: 422, state: { values: o.values, errors: {}, notice: notices[o.reason] } };
    return { status: 422, state: { values: o.values, errors: o.errors } };
  }

  const cap: MiddlewareHandler = bodyCap('form', (c) =>
    plainPage(
      c,
      413,
      'Not sent: too long',
      'This form was too large to send (more than 64 KB). Please shorten your message and try again.',
    ),
  );

  return { form, cap };
}
