// The owner's console for one website (`/dashboard/sites/:websiteId`): the draft's pages and
// posts with Delete behind a confirmation, Publish and Unpublish (with the approval page's own review),
// and Delete site behind a typed confirmation. Human-only: no tool does any of this.
import type { SiteConsole, ConsolePage } from '../../domain/sites/console.js';
import type { OwnerPublishView } from '../../plans/owner-publish.js';
import type { PlanReview } from '../../plans/kinds/types.js';
import type { SessionUser } from '../session.js';
import { CsrfField, Layout } from './layout.js';
import { REVIEW_CSS, Review } from './plan-review.js';
import { Time } from './time.js';

type Base = { user: SessionUser; csrf: string };

export const consolePath = (id: string) => `/dashboard/sites/${encodeURIComponent(id)}`;

const DONE: Record<string, string> = {
  published: 'Published. The live site now shows the draft you reviewed.',
  unpublished: 'The site is offline. The draft is kept; publish it again whenever you like.',
  page_deleted: 'Deleted from the draft. The live site changes when you next publish.',
  restored: 'Restored. The site is back as it was, offline until you publish it.',
  assistants_on: "Visitors' AI assistants can use the live site again.",
  assistants_off: "Visitors' AI assistants are switched off: the site's /_api/mcp answers 404.",
};

const CSS = `
.state{display:inline-block;font-size:.85rem;padding:.1rem .5rem;border-radius:999px;border:1px solid #bbb}
.state.live{background:#e5f6ea;border-color:#8fc9a0;color:#0b4d22}.state.draft{background:#fff3cd;border-color:#e6d28a;color:#5c4400}
nav.sub{display:flex;flex-wrap:wrap;gap:.4rem 1rem;margin:.5rem 0 1rem}
.danger{border-color:#e8b4bc}.danger button{background:#b00020;border-color:#b00020}
h1,p,li{overflow-wrap:anywhere}
`;

/** The console's sub-navigation, shared by its pages. */
export function ConsoleNav(props: { id: string }) {
  const base = consolePath(props.id);
  return (
    <nav class="sub" aria-label="Site console">
      <a href={base}>Pages and publishing</a>
      <a href={`${base}/customers`}>Customers</a>
      <a href={`${base}/members`}>Members</a>
      <a href={`${base}/restore-points`}>Restore points</a>
      <a href={`/editor/${encodeURIComponent(props.id)}/`}>Preview the draft</a>
    </nav>
  );
}

export function ConsolePageView(p: Base & { site: SiteConsole; done?: string }) {
  const base = consolePath(p.site.id);
  const kindName = (k: string) => (k === 'post' ? 'Blog post' : 'Page');
  return (
    <Layout title={p.site.name} user={p.user} csrf={p.csrf} css={CSS}>
      <p>
        <a href="/">← Your websites</a>
      </p>
      <h1>{p.site.name}</h1>
      <ConsoleNav id={p.site.id} />
      {p.done && DONE[p.done] ? (
        <p class="ok" role="status" id="done">
          {DONE[p.done]}
        </p>
      ) : null}
      <div class="card" id="publishing">
        <h2 style="margin-top:0">Publishing</h2>
        {p.site.publishedAt ? (
          <p>
            <span class="state live">Published</span> last published{' '}
            <Time at={p.site.publishedAt} tz={p.site.timeZone} />
            {p.site.draftAhead ? <span>; the draft has changes that are not live yet</span> : null}
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
        {p.site.pages.length === 0 ? (
          <p class="muted">The draft has no pages yet.</p>
        ) : (
          <table class="rt">
            <thead>
              <tr>
                <th scope="col">Title</th>
                <th scope="col">Address</th>
                <th scope="col">Kind</th>
                <th scope="col">Sections</th>
                <th scope="col">
                  <span class="sr">Action</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {p.site.pages.map((pg) => (
                <tr data-page={pg.id}>
                  <td data-label="Title">{pg.title}</td>
                  <td data-label="Address">/{pg.slug}</td>
                  <td data-label="Kind">{kindName(pg.kind)}</td>
                  <td data-label="Sections">{pg.sections}</td>
                  <td>
                    <a href={`${base}/pages/${encodeURIComponent(pg.id)}/delete`}>
                      Delete<span class="sr"> {pg.title}</span>…
                    </a>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
      <div class="card" id="assistants">
        <h2 style="margin-top:0">Visitors' AI assistants</h2>
        <p>
          {p.site.visitorAgents
            ? "On: while the site is live, a visitor's assistant can read it, see your public services and products, and send you a message or a booking request (as your forms can) at "
            : "Off: the live site does not answer visitors' assistants at "}
          <code>/_api/mcp</code>.
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
    </Layout>
  );
}

export function ConfirmDeletePage(p: Base & { siteId: string; siteName: string; page: ConsolePage }) {
  const base = consolePath(p.siteId);
  const what = p.page.kind === 'post' ? 'blog post' : 'page';
  return (
    <Layout title={`Delete the ${what}?`} user={p.user} csrf={p.csrf} css={CSS}>
      <p>
        <a href={base}>← {p.siteName}</a>
      </p>
      <div class="card">
        <h1>
          Delete the {what} “{p.page.title}”?
        </h1>
        <p>
          It is removed from the draft of {p.siteName} with its {p.page.sections} section
          {p.page.sections === 1 ? '' : 's'}. If it is live, visitors still see it until you next publish; the
          publish review lists it as going offline.
        </p>
        <div class="actions">
          <form method="post" action={`${base}/pages/${encodeURIComponent(p.page.id)}/delete`}>
            <CsrfField csrf={p.csrf} />
            <button type="submit" id="confirm-delete-page">
              Delete the {what}
            </button>
          </form>
          <a class="btn secondary" href={base}>
            Cancel
          </a>
        </div>
      </div>
    </Layout>
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
        <Review review={p.view.review} tz={p.view.timeZone} planId="" />
        <p>
          <a href={`/editor/${encodeURIComponent(p.siteId)}/`}>Preview the draft</a>
        </p>
        {p.view.nothingToPublish ? (
          <p id="nothing">The draft already matches the live site; there is nothing to publish.</p>
        ) : (
          <div class="actions">
            <form method="post" action={`${base}/publish`}>
              <CsrfField csrf={p.csrf} />
              <input type="hidden" name="revision" value={p.view.revision} />
              <button type="submit" id="confirm-publish">
                Publish
              </button>
            </form>
            <a class="btn secondary" href={base}>
              Cancel
            </a>
          </div>
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
        <Review review={p.review} tz={p.timeZone} planId="" />
        {p.live ? (
          <div class="actions">
            <form method="post" action={`${base}/unpublish`}>
              <CsrfField csrf={p.csrf} />
              <button type="submit" id="confirm-unpublish">
                Take the site offline
              </button>
            </form>
            <a class="btn secondary" href={base}>
              Cancel
            </a>
          </div>
        ) : (
          <p>The site is not live.</p>
        )}
      </div>
    </Layout>
  );
}
