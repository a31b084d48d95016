// The owner's console for one website (`/dashboard/sites/:websiteId`): the draft's pages and
// posts with Delete behind a confirmation, Publish and Unpublish (with the approval page's own review),
// and Delete site behind a typed confirmation. Human-only: no tool does any of this.
import type { SiteConsole, ConsolePage } from '../../domain/sites/console.js';
import type { OwnerPublishView } from '../../plans/owner-publish.js';
import type { PlanReview } from '../../plans/kinds/types.js';
import type { Child } from 'hono/jsx';
import type { SessionUser } from '../session.js';
import { ConfirmActions, ConfirmStep, Flash } from './confirm.js';
import { CsrfField, Layout } from './layout.js';
import { DataTable } from './table.js';
import { REVIEW_CSS, Review } from './plan-review.js';
import { Time } from './time.js';

type Base = { user: SessionUser; csrf: string };

/** What every console page is given: who looks, the form token, and the website's name and zone. */
export type ConsoleBase = Base & { siteId: string; siteName: string; timeZone: string };

export const consolePath = (id: string) => `/dashboard/sites/${encodeURIComponent(id)}`;

const DONE: Record<string, string> = {
  published: 'Published. The live site now shows the draft you reviewed.',
  unpublished: 'The site is offline. The draft is kept; publish it again whenever you like.',
  page_deleted: 'Deleted from the draft. The live site changes when you next publish.',
  uploaded: 'Image added to the library: choose it in any image field of the editor.',
  restored: 'Restored. The site is back as it was, offline until you publish it.',
  assistants_on: "Visitors' AI assistants can use the live site again.",
  assistants_off: "Visitors' AI assistants are switched off: the site's /_api/mcp answers 404.",
};

/** The console pages' shared sheet (appended to the layout's). */
export const CONSOLE_CSS = `
.state{display:inline-block;font-size:.85rem;padding:.1rem .5rem;border-radius:999px;border:1px solid #bbb}
.state.live{background:#e5f6ea;border-color:#8fc9a0;color:#0b4d22}.state.draft{background:#fff3cd;border-color:#e6d28a;color:#5c4400}
nav.sub{display:flex;flex-wrap:wrap;gap:.4rem 1rem;margin:.5rem 0 1rem}nav.sub a[aria-current=page]{font-weight:700;color:inherit;text-decoration:none}
.danger{border-color:#e8b4bc}.danger button{background:#b00020;border-color:#b00020}
.msg{white-space:pre-wrap;overflow-wrap:anywhere}.erased{color:#595959;font-style:italic}
h1,p,li{overflow-wrap:anywhere}
`;
const CSS = CONSOLE_CSS;

/** The console's sections, in the order of its sub-navigation. */
const SECTIONS = [
  ['pages', '', 'Pages and publishing'],
  ['bookings', '/bookings', 'Bookings'],
  ['services', '/services', 'Services'],
  ['products', '/products', 'Products'],
  ['customers', '/customers', 'Customers'],
  ['members', '/members', 'Members'],
  ['analytics', '/analytics', 'Analytics'],
  ['restore-points', '/restore-points', 'Restore points'],
] as const;
export type ConsoleSection = (typeof SECTIONS)[number][0];

/** The console's sub-navigation, shared by its pages; the page the owner is on is marked current. */
export function ConsoleNav(props: { id: string; current?: ConsoleSection }) {
  const base = consolePath(props.id);
  return (
    <nav class="sub" aria-label="Site console">
      {SECTIONS.map(([key, path, label]) => (
        <a href={base + path} aria-current={key === props.current ? 'page' : undefined}>
          {label}
        </a>
      ))}
      <a href={`/editor/${encodeURIComponent(props.id)}/`}>Preview the draft</a>
    </nav>
  );
}

/** A console page: the way home, the heading, the sub-navigation and the flash of the last action. */
export function ConsoleFrame(p: {
  user: SessionUser;
  csrf: string;
  siteId: string;
  title: string;
  heading: Child;
  current: ConsoleSection;
  css?: string;
  flash?: Child;
  children?: Child;
}) {
  return (
    <Layout title={p.title} user={p.user} csrf={p.csrf} css={CONSOLE_CSS + (p.css ?? '')}>
      <p>
        <a href="/">← Your websites</a>
      </p>
      <h1>{p.heading}</h1>
      <ConsoleNav id={p.siteId} current={p.current} />
      {p.flash}
      {p.children}
    </Layout>
  );
}

export function ConsolePageView(p: Base & { site: SiteConsole; done?: string; visitorMcpUrl: string }) {
  const base = consolePath(p.site.id);
  const kindName = (k: string) => (k === 'post' ? 'Blog post' : 'Page');
  return (
    <ConsoleFrame
      user={p.user}
      csrf={p.csrf}
      siteId={p.site.id}
      title={p.site.name}
      heading={p.site.name}
      current="pages"
      flash={<Flash messages={DONE} done={p.done} />}
    >
      <div class="card" id="publishing">
        <h2 style="margin-top:0">Publishing</h2>
        {p.site.publishedAt ? (
          <p>
            <span class="state live">Published</span> last published{' '}
            <Time at={p.site.publishedAt} tz={p.site.timeZone} />
            {p.site.draftAhead ? <span>; the draft has changes that are not live yet</span> : null}
          </p>
        ) : p.site.offline ? (
          <p>
            <span class="state draft">Offline</span> taken offline; visitors see nothing until you publish
            again
          </p>
        ) : (
          <p>
            <span class="state draft">Draft only</span> visitors see nothing yet
          </p>
        )}
        <div class="actions">
          {p.site.draftAhead ? (
            <a class="btn" href={`${base}/publish`} id="review-publish">
              Review and publish…
            </a>
          ) : null}
          {p.site.publishedAt ? (
            <a class="btn secondary" href={`${base}/unpublish`} id="review-unpublish">
              Unpublish…
            </a>
          ) : null}
        </div>
      </div>
      <div class="card" id="pages">
        <h2 style="margin-top:0">Pages and posts of the draft</h2>
        <DataTable
          rows={p.site.pages}
          empty="The draft has no pages yet."
          rowAttrs={(pg) => ({ 'data-page': pg.id })}
          columns={[
            {
              label: 'Title',
              cell: (pg) => (
                <a href={`${base}/pages/${encodeURIComponent(pg.id)}`} id={`edit-page-${pg.id}`}>
                  {pg.title}
                </a>
              ),
            },
            { label: 'Address', cell: (pg) => `/${pg.slug}` },
            { label: 'Kind', cell: (pg) => kindName(pg.kind) },
            { label: 'Sections', cell: (pg) => pg.sections },
            {
              label: 'Action',
              action: true,
              cell: (pg) => (
                <a href={`${base}/pages/${encodeURIComponent(pg.id)}/delete`}>
                  Delete<span class="sr"> {pg.title}</span>…
                </a>
              ),
            },
          ]}
        />
        {p.site.morePages || p.site.pagesFrom ? (
          <nav class="actions pager" aria-label="More pages and posts">
            {p.site.pagesFrom ? <a href={`${base}#pages`}>First pages</a> : null}
            {p.site.morePages ? (
              <a href={`${base}?after=${encodeURIComponent(p.site.morePages)}#pages`} id="more-pages">
                More pages and posts →
              </a>
            ) : null}
          </nav>
        ) : null}
        <form method="post" action={`${base}/pages`} id="add-page">
          <CsrfField csrf={p.csrf} />
          <h3>Add a page</h3>
          <label>
            Title
            <input name="title" maxlength={200} required />
          </label>
          <label>
            Address <span class="muted">(optional: made from the title, e.g. opening-hours)</span>
            <input name="slug" maxlength={120} pattern="[a-z0-9/-]*" />
          </label>
          <button type="submit" id="add-page-button">
            Add page
          </button>
        </form>
      </div>
      <div class="card" id="assistants">
        <h2 style="margin-top:0">Visitors' AI assistants</h2>
        <p>
          {p.site.visitorAgents
            ? "On: while the site is live, a visitor's assistant can read it, see your public services and products, and send you a message or a booking request (as your forms can) at "
            : "Off: the live site does not answer visitors' assistants at "}
          <code>{p.visitorMcpUrl}</code>.
        </p>
        <form method="post" action={`${base}/visitor-agents`}>
          <CsrfField csrf={p.csrf} />
          <input type="hidden" name="on" value={p.site.visitorAgents ? '0' : '1'} />
          <button type="submit" class={p.site.visitorAgents ? 'secondary' : ''} id="toggle-assistants">
            {p.site.visitorAgents ? 'Switch off' : 'Switch on'}
          </button>
        </form>
      </div>
      <div class="card danger" id="delete-site">
        <h2 style="margin-top:0">Delete this site</h2>
        <p>
          The site goes offline at once and your assistants can no longer see or change it. It is kept for 30
          days: until then you can restore it from your websites page. After that it is removed for good, with
          its pages, customers and images.
        </p>
        <form method="post" action={`${base}/delete`}>
          <CsrfField csrf={p.csrf} />
          <label>
            Type the site's name, <strong>{p.site.name}</strong>, to confirm
            <input name="name" autocomplete="off" required />
          </label>
          <button type="submit" id="confirm-delete-site">
            Delete site
          </button>
        </form>
      </div>
    </ConsoleFrame>
  );
}

export function ConfirmDeletePage(p: Base & { siteId: string; siteName: string; page: ConsolePage }) {
  const base = consolePath(p.siteId);
  const what = p.page.kind === 'post' ? 'blog post' : 'page';
  return (
    <ConfirmStep
      user={p.user}
      csrf={p.csrf}
      title={`Delete the ${what}?`}
      css={CSS}
      back={{ href: base, label: p.siteName }}
      heading={
        <>
          Delete the {what} “{p.page.title}”?
        </>
      }
      action={`${base}/pages/${encodeURIComponent(p.page.id)}/delete`}
      button={{ id: 'confirm-delete-page', label: `Delete the ${what}` }}
    >
      <p>
        It is removed from the draft of {p.siteName} with its {p.page.sections} section
        {p.page.sections === 1 ? '' : 's'}. If it is live, visitors still see it until you next publish; the
        publish review lists it as going offline.
      </p>
    </ConfirmStep>
  );
}

export function PublishPage(p: Base & { siteId: string; view: OwnerPublishView; moved?: boolean }) {
  const base = consolePath(p.siteId);
  return (
    <Layout title={`Publish ${p.view.siteName}?`} user={p.user} csrf={p.csrf} css={REVIEW_CSS + CSS}>
      <p>
        <a href={base}>← {p.view.siteName}</a>
      </p>
      <div class="card">
        {p.moved ? (
          <p class="error" role="alert" id="moved">
            The draft changed after you opened the review, so nothing was published. This is the review of the
            draft as it is now.
          </p>
        ) : null}
        <Review review={p.view.review} tz={p.view.timeZone} planId="" own />
        <p>
          <a href={`/editor/${encodeURIComponent(p.siteId)}/`}>Preview the draft</a>
        </p>
        {p.view.nothingToPublish ? (
          <p id="nothing">The draft already matches the live site; there is nothing to publish.</p>
        ) : (
          <ConfirmActions
            csrf={p.csrf}
            action={`${base}/publish`}
            hidden={{ revision: p.view.revision }}
            button={{ id: 'confirm-publish', label: 'Publish' }}
            cancel={base}
          />
        )}
      </div>
    </Layout>
  );
}

export function UnpublishPage(
  p: Base & { siteId: string; siteName: string; review: PlanReview; live: boolean; timeZone: string },
) {
  const base = consolePath(p.siteId);
  return (
    <Layout title={`Unpublish ${p.siteName}?`} user={p.user} csrf={p.csrf} css={REVIEW_CSS + CSS}>
      <p>
        <a href={base}>← {p.siteName}</a>
      </p>
      <div class="card">
        <Review review={p.review} tz={p.timeZone} planId="" own />
        {p.live ? (
          <ConfirmActions
            csrf={p.csrf}
            action={`${base}/unpublish`}
            button={{ id: 'confirm-unpublish', label: 'Take the site offline' }}
            cancel={base}
          />
        ) : (
          <p>The site is not live.</p>
        )}
      </div>
    </Layout>
  );
}
