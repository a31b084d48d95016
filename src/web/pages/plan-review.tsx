// What a plan will do, shown on its approval page (R-PLAN-3): facts, the publish change itself
// (live and draft text side by side with the differences marked), the product as customers will see
// it, the exact email. Every string here is agent- or visitor-written data: plain fields are rendered
// as text by hono/jsx (escaped) with a word-level diff from jsdiff; Markdown fields go through the
// site's own renderer (src/web/render/review-diff.ts), so the owner reads them as visitors will, and
// that renderer escapes every written character before adding its own tags. A link to another site
// shows its address after its words (CSS only), so the owner sees where a link goes before approving.
import { diffWords } from 'diff';
import { raw } from 'hono/html';
import type { PublishReview, ReviewField, ReviewSection } from '../../domain/pages/publish-review.js';
import type { PlanReview } from '../../plans/kinds/types.js';
import { type UrlResolver, makeResolver } from '../render/markdown.js';
import { renderedDiff } from '../render/review-diff.js';
import { Time } from './time.js';

const TYPE_NAMES: Record<string, string> = { blog_body: 'blog text', cta: 'call-to-action', faq: 'FAQ' };
const typeName = (t: string) => TYPE_NAMES[t] ?? t;

/** A Markdown field, live and draft side by side, rendered as the site shows it, changes marked. */
function RenderedDiff(props: { field: ReviewField; resolve: UrlResolver }) {
  const { before, after, label, format } = props.field;
  const html = renderedDiff(before, after, format === 'inline' ? 'inline' : 'markdown', props.resolve);
  const Box = format === 'inline' ? 'p' : 'div';
  return (
    <div class="field">
      <div class="lbl">{label}</div>
      <div class="sbs rendered">
        <div class="old">
          <span class="cap">Live now</span>
          {html.before === null ? (
            <p class="muted">(not on the live site)</p>
          ) : (
            <Box class="md">{raw(html.before)}</Box>
          )}
        </div>
        <div class="new">
          <span class="cap">After publishing</span>
          {html.after === null ? <p class="muted">(removed)</p> : <Box class="md">{raw(html.after)}</Box>}
        </div>
      </div>
    </div>
  );
}

/**
 * One field, live and draft side by side; removed words marked in the left, added in the right. A
 * word diff keeps the spaces of its second text in the words both share, so each side is drawn from
 * a diff whose second text is its own: the live column shows the live text exactly, line breaks and all.
 */
function FieldDiff(props: { field: ReviewField; resolve: UrlResolver }) {
  if (props.field.format !== 'text') return <RenderedDiff field={props.field} resolve={props.resolve} />;
  const { before, after, label } = props.field;
  const both = before !== null && after !== null;
  const live = both ? diffWords(after, before) : null;
  const parts = both ? diffWords(before, after) : null;
  return (
    <div class="field">
      <div class="lbl">{label}</div>
      <div class="sbs">
        <div class="old">
          <span class="cap">Live now</span>
          {before === null ? (
            <p class="muted">(not on the live site)</p>
          ) : (
            <p>
              {live ? live.map((p) => (p.removed ? null : p.added ? <del>{p.value}</del> : p.value)) : before}
            </p>
          )}
        </div>
        <div class="new">
          <span class="cap">After publishing</span>
          {after === null ? (
            <p class="muted">(removed)</p>
          ) : (
            <p>
              {parts
                ? parts.map((p) => (p.removed ? null : p.added ? <ins>{p.value}</ins> : p.value))
                : after}
            </p>
          )}
        </div>
      </div>
    </div>
  );
}

function sectionHeadline(s: ReviewSection): string {
  const what =
    s.change === 'added'
      ? 'new'
      : s.change === 'removed'
        ? 'removed'
        : s.change === 'edited'
          ? 'edited'
          : 'unchanged text';
  const extra = [
    s.moved ? `moved from position ${s.moved.from} to ${s.moved.to}` : '',
    s.visibility === 'hidden' ? 'hidden from visitors' : s.visibility === 'shown' ? 'shown again' : '',
  ].filter(Boolean);
  return `${typeName(s.type)} section: ${[what, ...extra].join(', ')}`;
}

/**
 * The change a publish makes, as the owner reviews it: new and removed pages, page fields, each
 * section's fields side by side, and placeholder text still in the draft. `resolve` places site links
 * and images in the text: under the reviewed draft's preview on the approval page. The draft-changes
 * MCP App draws the same review (src/web/apps/views.tsx).
 */
export function PublishChanges(props: { review: PublishReview; resolve: UrlResolver; level?: 2 | 3 }) {
  const r = props.review;
  // Its headings sit one level under the page's or review's own heading.
  const [H, Sub] = props.level === 2 ? (['h2', 'h3'] as const) : (['h3', 'h4'] as const);
  const placeholders = r.placeholders ?? [];
  const empty = r.emptyPages ?? [];
  return (
    <div id="publish-review">
      {placeholders.length ? (
        <div class="warn" id="placeholders" role="note">
          <H>Placeholder text still in the draft</H>
          <p>Visitors would read these words as they are. Ask your assistant to replace them, or decline.</p>
          <ul>
            {placeholders.map((p) => (
              <li data-section={p.sectionId}>
                Page “{p.page}” (/{p.slug}), {typeName(p.type)} section: “{p.text}”
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {empty.length ? (
        <div class="warn" id="empty-pages" role="note">
          <H>{empty.length === 1 ? 'A page with no sections' : 'Pages with no sections'}</H>
          <p>
            Visitors would find nothing but the title there. Ask your assistant to add sections, or decline.
          </p>
          <ul>
            {empty.map((p) => (
              <li>
                {p.kind === 'post' ? 'Blog post' : 'Page'} “{p.title}” (/{p.slug}) has no sections
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {r.newPages.length ? (
        <>
          <H>New pages and posts</H>
          <ul id="new-pages">
            {r.newPages.map((p) => (
              <li>
                {p.kind === 'post' ? 'Blog post' : 'Page'} “{p.title}” at /{p.slug} ({p.sections} section
                {p.sections === 1 ? '' : 's'})
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {r.removedPages.length ? (
        <>
          <H>Pages and posts that go offline</H>
          <ul id="removed-pages">
            {r.removedPages.map((p) => (
              <li>
                {p.kind === 'post' ? 'Blog post' : 'Page'} “{p.title}” at /{p.slug}
              </li>
            ))}
          </ul>
        </>
      ) : null}
      {r.pageFields.length ? (
        <>
          <H>Page titles, addresses and search (SEO) text</H>
          {r.pageFields.map((f) => (
            <div class="chg seo">
              <Sub>
                Page “{f.page}” (/{f.slug})
              </Sub>
              <FieldDiff field={f.field} resolve={props.resolve} />
            </div>
          ))}
        </>
      ) : null}
      {r.sections.length ? (
        <>
          <H>Sections</H>
          {r.sections.map((s) => (
            <div class={`chg ${s.change}`} data-section={s.sectionId}>
              <Sub>
                Page “{s.page}” (/{s.slug}): {sectionHeadline(s)}
              </Sub>
              {s.fields.map((f) => (
                <FieldDiff field={f} resolve={props.resolve} />
              ))}
              {s.fields.length === 0 ? <p class="muted">The text is not changed.</p> : null}
            </div>
          ))}
        </>
      ) : null}
    </div>
  );
}

export function Review(props: {
  review: PlanReview;
  tz: string;
  planId: string;
  /** False when SMTP_URL is not set: an approved email stays queued in the outbox. */
  mailServer?: boolean;
  /** The owner's own publish or unpublish in the console: a review of what happens, not of a plan. */
  own?: boolean;
}) {
  const r = props.review;
  return (
    <>
      <h1>{r.title}</h1>
      <table class="facts">
        <caption class="sr">{props.own ? 'What happens' : 'What this plan does'}</caption>
        <tbody>
          {r.facts.map((f) => (
            <tr>
              <th scope="row">{f.label}</th>
              <td>{f.value}</td>
            </tr>
          ))}
          {(r.when ?? []).map((w) => (
            <tr>
              <th scope="row">{w.label}</th>
              <td>
                <Time at={w.at} tz={props.tz} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {r.notes?.map((n) => (
        <p>{n}</p>
      ))}
      {r.preview ? (
        <p>
          <a id="preview-link" href={`/approvals/${props.planId}/preview/`}>
            Preview the site exactly as it will go live
          </a>{' '}
          <span class="muted">(the draft as reviewed here, even if it has changed since)</span>
        </p>
      ) : null}
      {r.product ? (
        <div class="product" id="product">
          <span class="cap">As customers will see it</span>
          <h2>{r.product.name}</h2>
          <p class="price">{r.product.price}</p>
          {r.product.description ? <p>{r.product.description}</p> : null}
        </div>
      ) : null}
      {r.list ? (
        <>
          <h2>{r.list.heading}</h2>
          {r.list.items.length ? (
            <ul id="changes">
              {r.list.items.map((i) => (
                <li>{i}</li>
              ))}
            </ul>
          ) : (
            <p class="muted">{r.list.empty}</p>
          )}
        </>
      ) : null}
      {r.publish ? (
        <PublishChanges
          review={r.publish}
          resolve={makeResolver(`/approvals/${props.planId}/preview`)}
          level={2}
        />
      ) : null}
      {r.table ? (
        <div class="scroll">
          <table id="lines">
            <thead>
              <tr>
                {r.table.columns.map((c) => (
                  <th scope="col">{c}</th>
                ))}
              </tr>
            </thead>
            <tbody>
              {r.table.rows.map((row) => (
                <tr>
                  {row.map((c) => (
                    <td>{c}</td>
                  ))}
                </tr>
              ))}
            </tbody>
            {r.table.footer ? (
              <tfoot>
                <tr>
                  {r.table.footer.map((c) => (
                    <th scope="row">{c}</th>
                  ))}
                </tr>
              </tfoot>
            ) : null}
          </table>
        </div>
      ) : null}
      {r.email ? (
        <div id="email">
          <h2>The email that will be sent</h2>
          {props.mailServer === false ? (
            <p class="error" id="no-mail-server" role="note">
              No mail server is configured (SMTP_URL is not set), so nothing leaves this server: approving
              keeps this email queued in the outbox. It is sent once the operator sets SMTP_URL.
            </p>
          ) : null}
          <dl class="mail">
            <dt>To</dt>
            <dd>{r.email.to}</dd>
            <dt>Subject</dt>
            <dd>{r.email.subject}</dd>
          </dl>
          <pre class="mailbody">{r.email.text}</pre>
          <p class="muted">The same document is attached as a web page.</p>
        </div>
      ) : null}
    </>
  );
}

export const REVIEW_CSS = `
.facts th{width:30%;vertical-align:top}
.chg{border:1px solid #e3e3e8;border-radius:8px;padding:.75rem;margin:.75rem 0}
.chg h3,.chg h4{margin:0 0 .5rem;font-size:1rem;overflow-wrap:anywhere}
.field{margin:.5rem 0}.lbl{font-weight:600;font-size:.9rem;color:#444}
.sbs{display:grid;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr));gap:.5rem}
.sbs>div{background:#fafafc;border:1px solid #eee;border-radius:6px;padding:.5rem;min-width:0}
.sbs p{margin:.25rem 0 0;white-space:pre-wrap;overflow-wrap:anywhere}
.sbs .md p,.sbs p.md{white-space:normal}.sbs .md{overflow-wrap:anywhere}.sbs .md>:first-child{margin-top:.25rem}
.sbs .md h2,.sbs .md h3,.sbs .md h4{margin:.5rem 0 .25rem}.sbs .md ul,.sbs .md ol{margin:.25rem 0;padding-left:1.25rem}
.sbs .md blockquote{margin:.25rem 0;padding:.25rem .75rem;border-left:3px solid #ccd}.sbs .md img{max-width:100%;height:auto}
.sbs .md .table-scroll{overflow-x:auto}.sbs .md table{border-collapse:collapse;width:max-content;min-width:100%}.sbs .md th,.sbs .md td{border:1px solid #dde;padding:.2rem .4rem;text-align:left;overflow-wrap:normal;max-width:16rem}.sbs .md .al-center{text-align:center}.sbs .md .al-right{text-align:right}
.sbs .md pre{overflow-x:auto;background:#f0f0f4;padding:.5rem;border-radius:4px;white-space:pre;overflow-wrap:normal}
.sbs .md del img,.sbs .md ins img{outline:3px solid currentColor}
.sbs .md a[href^="http"]::after,.sbs .md a[href^="mailto:"]::after,.sbs .md a[href^="tel:"]::after{content:" (" attr(href) ")";color:#555;font-size:.85em}
.warn{border:1px solid #e6d28a;background:#fff8e1;color:#4a3700;border-radius:8px;padding:.75rem;margin:.75rem 0}
.warn h2,.warn h3{margin:0 0 .25rem;font-size:1rem}.warn ul{margin:.25rem 0 0}
.cap{display:block;font-size:.8rem;color:#555;text-transform:uppercase;letter-spacing:.03em}
del{background:#ffd7d7;color:#5c0000;text-decoration:line-through}
ins{background:#cdf5d6;color:#003d12;text-decoration:none;outline:1px solid #58a86b;font-weight:600}
.product{border:1px solid #e3e3e8;border-radius:8px;padding:1rem;max-width:24rem}.product h2{margin:.25rem 0}
.price{font-size:1.4rem;font-weight:700;margin:.25rem 0}
.mail{display:grid;grid-template-columns:auto 1fr;gap:.25rem .75rem;margin:0}.mail dt{font-weight:600}
.mail dd{margin:0;overflow-wrap:anywhere}.mailbody{white-space:pre-wrap;overflow-wrap:anywhere;padding:.75rem}
.scroll{overflow-x:auto}
`;
