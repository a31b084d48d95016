// Editing the draft by hand in the console (src/domain/pages/by-hand.ts): a page's sections, a section's
// edit form, a new page, the search texts and an image uploaded into the library. Owner only, through
// the person gate; the CSRF guard of session.ts has checked every POST. A section's save that the
// domain refuses (content not accepted, or saved by someone else meanwhile) shows the form again with
// what the owner typed, never loses it.
import type { Context, Hono } from 'hono';
import { asPerson } from '../../domain/as-person.js';
import { libraryImages } from '../../domain/library/assets.js';
import { uploadImage } from '../../domain/library/upload.js';
import {
  addSectionByHand,
  createPageByHand,
  moveSectionByHand,
  saveSectionByHand,
  setSectionHiddenByHand,
  updatePageSeoByHand,
} from '../../domain/pages/by-hand.js';
import { getPage, sectionLabel } from '../../domain/pages/read.js';
import type { SiteCtx } from '../../domain/context.js';
import { findSection } from '../../domain/sections/store.js';
import { type SectionType, isSectionType } from '../../domain/sections/types.js';
import { invalidInput, notFound } from '../../kernel/errors.js';
import type { AppDeps } from '../deps.js';
import { consolePath } from '../pages/console.js';
import { PageEditorView, SectionEditView, editorPath, sectionPath } from '../pages/page-editor.js';
import { contentFromForm, sectionFields } from '../section-form.js';
import type { WebEnv } from '../session.js';
import { type RefusalStatus, refusalPage } from '../refusal.js';
import { type Form, consoleView, field, ownerAction } from './owner-action.js';

const SITE = '/dashboard/sites/:websiteId';
const PAGE = `${SITE}/pages/:pageId`;
const SECTION = `${PAGE}/sections/:sectionId`;

const draftOf = (ctx: SiteCtx) => ({ ...ctx, db: ctx.tx });

export function mountPageEditor(app: Hono<WebEnv>, deps: AppDeps): void {
  app.get(PAGE, async (c) => {
    const view = await consoleView(c, deps, 'draft.edit', async (ctx) => {
      const p = await getPage(draftOf(ctx), c.req.param('pageId'));
      return {
        page: {
          id: p.pageId,
          title: p.title,
          slug: p.slug,
          kind: p.kind,
          seo: p.seo,
          sections: p.sections.map((s) => ({
            id: s.sectionId,
            type: s.type,
            hidden: s.hidden,
            rev: s.rev,
            label: sectionLabel(s.content as Record<string, unknown>),
          })),
        },
      };
    });
    return c.html(<PageEditorView {...view} done={c.req.query('done')} />);
  });

  const toPage = (id: string, pageId: string, done: string) => `${editorPath(id, pageId)}?done=${done}`;

  // The draft edits: each leads back to the page (or the section) it came from.
  const pageAction = <I, R>(spec: {
    path: string;
    input: (form: Form, params: Record<string, string>) => I;
    run: (ctx: SiteCtx, input: I) => Promise<R>;
    done: (websiteId: string, result: R, input: I) => string;
  }) =>
    ownerAction(app, deps, {
      path: spec.path,
      action: 'draft.edit',
      input: spec.input,
      run: async (ctx, input: I) => ({ result: await spec.run(ctx, input), input }),
      done: (id, { result, input }) => spec.done(id, result, input),
      back: (id) => ({ href: consolePath(id), label: 'Back to the site console' }),
    });

  pageAction({
    path: `${SITE}/pages`,
    input: (form) => ({ title: field(form, 'title', 300), slug: field(form, 'slug', 200) || undefined }),
    run: createPageByHand,
    done: (id, r) => toPage(id, r.pageId, 'page_added'),
  });
  pageAction({
    path: `${PAGE}/seo`,
    input: (form, params) => ({
      pageId: params.pageId!,
      title: field(form, 'title', 200),
      description: field(form, 'description', 1000),
    }),
    run: updatePageSeoByHand,
    done: (id, r) => toPage(id, r.pageId, 'seo'),
  });
  pageAction({
    path: `${PAGE}/sections`,
    input: (form, params) => ({ pageId: params.pageId!, type: field(form, 'type', 40) }),
    run: addSectionByHand,
    done: (id, r, input) => `${sectionPath(id, input.pageId, r.sectionId)}?done=added`,
  });
  pageAction({
    path: `${SECTION}/move`,
    input: (form, params) => ({
      pageId: params.pageId!,
      sectionId: params.sectionId!,
      from: Number.parseInt(field(form, 'from', 6), 10),
      direction: field(form, 'direction', 6) === 'up' ? ('up' as const) : ('down' as const),
    }),
    run: moveSectionByHand,
    done: (id, _r, input) => toPage(id, input.pageId, 'moved'),
  });
  pageAction({
    path: `${SECTION}/hide`,
    input: (form, params) => ({
      pageId: params.pageId!,
      sectionId: params.sectionId!,
      hidden: field(form, 'hidden', 2) === '1',
    }),
    run: setSectionHiddenByHand,
    done: (id, _r, input) => toPage(id, input.pageId, input.hidden ? 'hidden' : 'shown'),
  });

  /** The section's page, its draft row and the library's images, read for the signed-in owner. */
  const sectionView = (c: Context<WebEnv>) =>
    consoleView(c, deps, 'draft.edit', async (ctx) => {
      const page = await getPageHead(ctx, c.req.param('pageId') ?? '');
      const row = await findSection(ctx, page.id, c.req.param('sectionId') ?? '');
      if (!isSectionType(row.type)) throw notFound('section');
      const images = (await libraryImages(ctx.tx, ctx.website.id)).map((i) => ({
        id: i.id,
        width: i.width,
        height: i.height,
        prompt: i.prompt,
      }));
      return {
        page,
        section: { id: row.id, type: row.type as SectionType, rev: row.rev },
        content: row.content as Record<string, unknown>,
        images,
      };
    });

  app.get(SECTION, async (c) => {
    const view = await sectionView(c);
    return c.html(
      <SectionEditView
        {...view}
        fields={sectionFields(view.section.type, view.content)}
        done={c.req.query('done')}
      />,
    );
  });

  app.post(SECTION, async (c) => {
    const view = await sectionView(c);
    const form = await c.req.parseBody();
    const content = contentFromForm(view.section.type, form);
    const again = (extra: { error?: string; changedTo?: number }, status: 200 | RefusalStatus) =>
      c.html(
        <SectionEditView
          {...view}
          section={{ ...view.section, rev: extra.changedTo ?? (Number(field(form, 'rev', 12)) || 0) }}
          fields={sectionFields(view.section.type, content)}
          {...extra}
        />,
        status,
      );
    if (field(form, 'intent', 10) === 'preview') return again({}, 200);
    // A refused save shows the form again with what was typed: the content's problem, or (saved by
    // someone else since the form was drawn) their rev, which the form carries from now on.
    const back = refusalPage({ href: editorPath(view.siteId, view.page.id), label: 'Back to the page' });
    c.set('refusalAnswer', (ctx, err, status) =>
      err.code === 'invalid_input'
        ? again({ error: err.message }, status)
        : err.code === 'stale_revision'
          ? again({ changedTo: view.section.rev }, status)
          : back(ctx, err, status),
    );
    await asPerson(deps.services, c.get('user')!.id, 'draft.edit', view.siteId, (ctx) =>
      saveSectionByHand(ctx, {
        pageId: view.page.id,
        sectionId: view.section.id,
        content,
        clientRev: Number(field(form, 'rev', 12)),
      }),
    );
    return c.redirect(`${editorPath(view.siteId, view.page.id)}?done=saved`, 303);
  });

  // An image from the owner's computer into the library; back to the editor page it came from.
  ownerAction(app, deps, {
    path: `${SITE}/library`,
    action: 'library.upload',
    input: (form) => ({ file: form.image, back: field(form, 'back', 500) }),
    run: async (ctx, { file, back }) => {
      if (!(file instanceof File)) throw invalidInput('Choose an image file to add.');
      const added = await uploadImage(ctx, new Uint8Array(await file.arrayBuffer()));
      return { ...added, back };
    },
    done: (id, r) => `${withinConsole(id, r.back)}?done=uploaded`,
    back: (id) => ({ href: consolePath(id), label: 'Back to the site console' }),
  });
}

/** A path back into this site's console as the form named it; anything else is the console itself. */
function withinConsole(siteId: string, path: string): string {
  const base = `${consolePath(siteId)}/pages/`;
  return path.startsWith(base) && /^[\w/%-]+$/.test(path) ? path : consolePath(siteId);
}

async function getPageHead(ctx: SiteCtx, pageId: string) {
  const p = await getPage(draftOf(ctx), pageId);
  return { id: p.pageId, title: p.title };
}
