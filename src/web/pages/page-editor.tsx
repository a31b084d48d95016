// Editing the draft by hand: one page of the draft (its sections in order with Edit, Move up/down,
// Hide/Show, a section added from the catalogue add_section uses, the search title and description) and
// one section's edit form, drawn from its type's schema (src/web/section-form.ts), with Markdown shown
// as the site will show it and images chosen from the library or uploaded into it.
import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';
import { SECTION_TYPES, type SectionType } from '../../domain/sections/types.js';
import { inline, makeResolver, markdown } from '../render/markdown.js';
import type { Field } from '../section-form.js';
import { ConsoleFrame, type ConsoleBase, consolePath } from './console.js';
import { Flash } from './confirm.js';
import { CsrfField } from './layout.js';
import { DataTable } from './table.js';

export const editorPath = (siteId: string, pageId: string) =>
  `${consolePath(siteId)}/pages/${encodeURIComponent(pageId)}`;
export const sectionPath = (siteId: string, pageId: string, sectionId: string) =>
  `${editorPath(siteId, pageId)}/sections/${encodeURIComponent(sectionId)}`;

/** What each section type is, in the owner's words (the catalogue's order is the schema's). */
export const SECTION_NAMES: Record<SectionType, string> = {
  hero: 'Hero: a big heading with a button',
  text: 'Text',
  image: 'Image',
  gallery: 'Gallery of images',
  features: 'Features, services or team',
  testimonials: 'Testimonials',
  pricing: 'Prices',
  faq: 'Questions and answers',
  cta: 'Call to action',
  contact: 'Contact details and form',
  blog_body: 'Blog post text',
};
const typeName = (t: string) => (SECTION_NAMES as Record<string, string>)[t]?.split(':')[0] ?? t;

const EDITOR_CSS = `
fieldset{border:1px solid #e3e3e8;border-radius:8px;margin:.75rem 0;padding:.5rem .9rem}legend{font-weight:600}
.preview{border-left:3px solid #c8c8d0;padding:.1rem .8rem;margin:.3rem 0 .8rem;background:#fafafc}
.preview-label{font-size:.85rem;color:#595959;margin:0}.hint{font-size:.85rem;color:#595959;margin:.1rem 0}
.inline-form{display:inline}.row-actions{display:flex;flex-wrap:wrap;gap:.4rem}.row-actions button{padding:.3rem .7rem}
.state.hidden{background:#eee;color:#333}.thumbs{display:flex;flex-wrap:wrap;gap:.5rem}.thumbs img{max-height:64px;border:1px solid #ddd;border-radius:4px}
`;

const DONE: Record<string, string> = {
  saved: 'Saved to the draft. The live site changes when you next publish.',
  added: 'Section added to the draft.',
  moved: 'Moved.',
  hidden: 'Hidden: the live site leaves it out after you next publish.',
  shown: 'Shown again after you next publish.',
  seo: 'Search title and description saved to the draft.',
  page_added: 'Page added to the draft. Add sections to it, then publish.',
  uploaded: 'Image added to the library: choose it in any image field.',
};

export type EditorSection = { id: string; type: string; hidden: boolean; label: string; rev: number };
export type EditorPage = {
  id: string;
  title: string;
  slug: string;
  kind: string;
  seo: { title: string | null; description: string | null };
  sections: EditorSection[];
};

export function PageEditorView(p: ConsoleBase & { page: EditorPage; done?: string }) {
  const base = editorPath(p.siteId, p.page.id);
  const last = p.page.sections.length - 1;
  return (
    <ConsoleFrame
      {...p}
      title={`Edit ${p.page.title}`}
      heading={<>Edit “{p.page.title}”</>}
      current="pages"
      css={EDITOR_CSS}
      flash={<Flash messages={DONE} done={p.done} />}
    >
      <p>
        <a href={consolePath(p.siteId)}>← All pages</a> · Address <code>/{p.page.slug}</code> ·{' '}
        <a href={`/editor/${encodeURIComponent(p.siteId)}/${p.page.slug}`}>Preview this page</a>
      </p>
      <div class="card" id="sections">
        <h2 style="margin-top:0">Sections</h2>
        <DataTable
          rows={p.page.sections.map((s, i) => ({ ...s, i }))}
          empty="This page has no sections yet: visitors would see only its title. Add one below."
          rowAttrs={(s) => ({ 'data-section': s.id })}
          columns={[
            { label: 'Place', cell: (s) => s.i + 1 },
            { label: 'Kind', cell: (s) => typeName(s.type) },
            {
              label: 'Shows',
              cell: (s) => (
                <>
                  {s.label || <span class="muted">(no text)</span>}{' '}
                  {s.hidden ? <span class="state hidden">Hidden</span> : null}
                </>
              ),
            },
            {
              label: 'Actions',
              action: true,
              cell: (s) => (
                <div class="row-actions">
                  <a class="btn secondary" href={sectionPath(p.siteId, p.page.id, s.id)} id={`edit-${s.id}`}>
                    Edit<span class="sr"> section {s.i + 1}</span>
                  </a>
                  {s.i > 0 ? <Move {...p} s={s} direction="up" /> : null}
                  {s.i < last ? <Move {...p} s={s} direction="down" /> : null}
                  <form
                    method="post"
                    action={`${sectionPath(p.siteId, p.page.id, s.id)}/hide`}
                    class="inline-form"
                  >
                    <CsrfField csrf={p.csrf} />
                    <input type="hidden" name="hidden" value={s.hidden ? '0' : '1'} />
                    <button type="submit" class="secondary" id={`${s.hidden ? 'show' : 'hide'}-${s.id}`}>
                      {s.hidden ? 'Show' : 'Hide'}
                      <span class="sr"> section {s.i + 1}</span>
                    </button>
                  </form>
                </div>
              ),
            },
          ]}
        />
        <form method="post" action={`${base}/sections`} id="add-section">
          <CsrfField csrf={p.csrf} />
          <label>
            Add a section at the end
            <select name="type">
              {SECTION_TYPES.filter((t) => t !== 'blog_body' || p.page.kind === 'post').map((t) => (
                <option value={t}>{SECTION_NAMES[t]}</option>
              ))}
            </select>
          </label>
          <button type="submit" id="add-section-button">
            Add section
          </button>
        </form>
      </div>
      <div class="card" id="seo">
        <h2 style="margin-top:0">How search engines show this page</h2>
        <form method="post" action={`${base}/seo`}>
          <CsrfField csrf={p.csrf} />
          <label>
            Search title <span class="hint">(up to 70 characters; empty: the page title)</span>
            <input name="title" maxlength={70} value={p.page.seo.title ?? ''} />
          </label>
          <label>
            Search description <span class="hint">(up to 320 characters)</span>
            <textarea name="description" maxlength={320} rows={3}>
              {p.page.seo.description ?? ''}
            </textarea>
          </label>
          <button type="submit" id="save-seo">
            Save
          </button>
        </form>
      </div>
    </ConsoleFrame>
  );
}

function Move(
  p: ConsoleBase & { page: EditorPage; s: EditorSection & { i: number }; direction: 'up' | 'down' },
) {
  return (
    <form method="post" action={`${sectionPath(p.siteId, p.page.id, p.s.id)}/move`} class="inline-form">
      <CsrfField csrf={p.csrf} />
      <input type="hidden" name="from" value={String(p.s.i)} />
      <input type="hidden" name="direction" value={p.direction} />
      <button type="submit" class="secondary" id={`${p.direction}-${p.s.id}`}>
        {p.direction === 'up' ? 'Move up' : 'Move down'}
        <span class="sr"> section {p.s.i + 1}</span>
      </button>
    </form>
  );
}

export type LibraryImage = { id: string; width: number | null; height: number | null; prompt: string | null };

export function SectionEditView(
  p: ConsoleBase & {
    page: { id: string; title: string };
    section: { id: string; type: string; rev: number };
    fields: Field[];
    images: LibraryImage[];
    /** The refusal of the last save, with the form as the owner sent it. */
    error?: string;
    /** Someone saved this section after the owner opened it (their rev); the owner's text is kept. */
    changedTo?: number;
    done?: string;
  },
) {
  const action = sectionPath(p.siteId, p.page.id, p.section.id);
  const resolve = makeResolver(`/editor/${encodeURIComponent(p.siteId)}`);
  return (
    <ConsoleFrame
      {...p}
      title={`Edit a ${typeName(p.section.type)} section`}
      heading={
        <>
          {typeName(p.section.type)} section of “{p.page.title}”
        </>
      }
      current="pages"
      css={EDITOR_CSS}
      flash={<Flash messages={DONE} done={p.done} />}
    >
      <p>
        <a href={editorPath(p.siteId, p.page.id)}>← Back to the page</a>
      </p>
      {p.error ? (
        <p class="error card" role="alert" id="form-error">
          {p.error} Nothing was saved; what you typed is still below.
        </p>
      ) : null}
      {p.changedTo ? (
        <p class="error card" role="alert" id="stale">
          Someone saved this section after you opened it (it is now at version {p.changedTo}), so your version
          was not saved. Your text is still below: <a href={action}>open their version</a> to start from it,
          or save again to replace it with yours.
        </p>
      ) : null}
      <form method="post" action={action} class="card" id="section-form">
        <CsrfField csrf={p.csrf} />
        <input type="hidden" name="rev" value={String(p.section.rev)} />
        {p.fields.map((f) => (
          <FieldView f={f} images={p.images} resolve={resolve} />
        ))}
        <div class="actions">
          <button type="submit" name="intent" value="save" id="save-section">
            Save to the draft
          </button>
          <button type="submit" name="intent" value="preview" class="secondary" id="preview-section">
            Show the Markdown as it will look
          </button>
          <a class="btn secondary" href={editorPath(p.siteId, p.page.id)}>
            Cancel
          </a>
        </div>
      </form>
      <div class="card" id="library">
        <h2 style="margin-top:0">Add an image to the library</h2>
        <p class="hint">PNG, JPEG or WebP, up to 10 MB. Save your text first: uploading leaves this page.</p>
        <form method="post" action={`${consolePath(p.siteId)}/library`} enctype="multipart/form-data">
          <CsrfField csrf={p.csrf} />
          <input type="hidden" name="back" value={action} />
          <label>
            Image file
            <input type="file" name="image" accept="image/png,image/jpeg,image/webp" required />
          </label>
          <button type="submit" class="secondary" id="upload-image">
            Add to the library
          </button>
        </form>
        {p.images.length ? (
          <div class="thumbs">
            {p.images.slice(0, 24).map((img) => (
              <img src={`/assets/${img.id}`} alt={imageLabel(img)} loading="lazy" />
            ))}
          </div>
        ) : null}
      </div>
    </ConsoleFrame>
  );
}

const imageLabel = (img: LibraryImage) =>
  `${img.prompt ? `“${img.prompt.slice(0, 60)}”` : 'Image'}${img.width ? ` ${img.width}×${img.height}` : ''}`;

function FieldView(p: { f: Field; images: LibraryImage[]; resolve: ReturnType<typeof makeResolver> }): Child {
  const f = p.f;
  if (f.kind === 'list') {
    return (
      <fieldset>
        <legend>{f.label}</legend>
        <input type="hidden" name={`${f.name}._rows`} value={String(f.items.length)} />
        {f.items.map((fields, i) => {
          const isNew = i === f.items.length - 1 && f.items.length <= f.max && fields.every(empty);
          return (
            <fieldset>
              <legend>{isNew ? 'Add one' : `${f.label.replace(/s$/, '')} ${i + 1}`}</legend>
              {fields.map((child) => (
                <FieldView f={child} images={p.images} resolve={p.resolve} />
              ))}
              {isNew ? null : (
                <label>
                  <input type="checkbox" name={`${f.name}.${i}._remove`} value="yes" style="width:auto" />{' '}
                  Remove this one
                </label>
              )}
            </fieldset>
          );
        })}
      </fieldset>
    );
  }
  if (f.kind === 'yesno') {
    return (
      <label>
        {f.label}
        <select name={f.name}>
          <option value="yes" selected={f.value}>
            Yes
          </option>
          <option value="no" selected={!f.value}>
            No
          </option>
        </select>
      </label>
    );
  }
  if (f.kind === 'lines') {
    return (
      <label>
        {f.label}
        <textarea name={f.name} rows={4}>
          {f.value}
        </textarea>
      </label>
    );
  }
  const req = f.required ? null : <span class="hint"> (optional)</span>;
  if (f.kind === 'image') {
    const known = p.images.some((i) => i.id === f.value);
    return (
      <label>
        {f.label}
        {req}
        <select name={f.name}>
          <option value="">{f.required ? 'Choose an image' : 'No image'}</option>
          {f.value && !known ? (
            <option value={f.value} selected>
              {f.value}
            </option>
          ) : null}
          {p.images.map((img) => (
            <option value={img.id} selected={img.id === f.value}>
              {imageLabel(img)}
            </option>
          ))}
        </select>
      </label>
    );
  }
  const preview =
    f.format && f.value ? (
      <div>
        <p class="preview-label">As the site shows it:</p>
        <div class="preview">
          {raw(f.format === 'markdown' ? markdown(f.value, p.resolve) : inline(f.value, p.resolve))}
        </div>
      </div>
    ) : null;
  const hint = f.format ? (
    <span class="hint"> (Markdown: **bold**, *italic*, [link](https://…), lists)</span>
  ) : null;
  return (
    <>
      {f.kind === 'markdown' || f.kind === 'textarea' ? (
        <label>
          {f.label}
          {req}
          {hint}
          <textarea name={f.name} rows={f.kind === 'markdown' ? 8 : 3} maxlength={f.max}>
            {f.value}
          </textarea>
        </label>
      ) : (
        <label>
          {f.label}
          {req}
          {hint}
          <input
            name={f.name}
            type={f.kind === 'email' ? 'email' : 'text'}
            value={f.value}
            maxlength={f.max}
          />
        </label>
      )}
      {preview}
    </>
  );
}

const empty = (f: Field): boolean => (f.kind === 'list' ? false : f.kind === 'yesno' ? true : f.value === '');
