// The contact form of the published site (R-VIS-1, R-SURF-7): a contact section with `showForm` on a
// published page takes name, email, optional phone and message, and a submission that passes the spam
// defences becomes a `new` lead of that website, counted as a form submission, with an email to the owners.
import { z } from 'zod';
import { newId } from '../../kernel/ids.js';
import { leads } from '../../db/schema.js';
import { type SiteView, loadSiteView, sitePathOf } from '../sites/view.js';
import { type Outcome, type Submission, type VisitorDeps, sourceOf, submit } from './submission.js';
import { VisitorEmail, VisitorName, VisitorPhone, VisitorText, parseFields } from './visitor-fields.js';
import { notifyOwners } from './notify-owner.js';

const CONTACT_FIELDS = ['name', 'email', 'phone', 'message'] as const;
const MESSAGE_MAX = 4_000;

const Contact = {
  name: VisitorName,
  email: VisitorEmail,
  phone: VisitorPhone,
  message: VisitorText('Your message', MESSAGE_MAX, { multiline: true }).pipe(
    z.string().min(1, { error: 'Please write a message.' }),
  ),
};

/** Whether a section shows the contact form on the live site. */
export function showsContactForm(s: { type: string; content: unknown; hidden: boolean }): boolean {
  if (s.type !== 'contact' || s.hidden) return false;
  const c = s.content as { showForm?: unknown } | null;
  return c?.showForm !== false;
}

/** The published page holding this contact section, or null (unpublished, hidden, no form). */
export function contactTarget(view: SiteView, sectionId: string) {
  for (const page of view.pages) {
    const section = page.sections.find((s) => s.id === sectionId);
    if (section) return showsContactForm(section) ? { page, path: sitePathOf(view, page) } : null;
  }
  return null;
}

/** The first contact form of the published site: where a visitor's assistant's message is sent from. */
export function firstContactForm(view: SiteView): string | null {
  for (const page of view.pages) {
    const section = page.sections.find(showsContactForm);
    if (section) return section.id;
  }
  return null;
}

export async function submitContactForm(
  deps: VisitorDeps,
  sub: Submission & { sectionId: string },
): Promise<Outcome> {
  const view = await loadSiteView(deps.services.db, sub.websiteId, 'published');
  const target = view && contactTarget(view, sub.sectionId);
  if (!view || !target) return { outcome: 'not_found' };
  return submit(deps, sub, {
    names: CONTACT_FIELDS,
    parse: (fields) => parseFields(Contact, fields),
    async write(tx, v, now) {
      const id = newId('lead');
      await tx.insert(leads).values({
        id,
        websiteId: sub.websiteId,
        status: 'new',
        name: v.name,
        email: v.email,
        phone: v.phone || null,
        message: v.message,
        source: sourceOf(sub),
        createdAt: now,
        updatedAt: now,
      });
      const mailIds = await notifyOwners(
        tx,
        {
          websiteId: sub.websiteId,
          siteName: view.name,
          kind: 'lead',
          subject: `New message from your website ${view.name}`,
          replyTo: v.email,
          lines: [
            sub.channel === 'assistant'
              ? `Someone's AI assistant sent you this message for them through your website.`
              : `Someone wrote to you through the contact form on ${target.path}.`,
            '',
            `Name: ${v.name}`,
            `Email: ${v.email}`,
            ...(v.phone ? [`Phone: ${v.phone}`] : []),
            '',
            v.message,
          ],
        },
        now,
      );
      return { id, mailIds, path: target.path, kind: 'form_submit' };
    },
  });
}
