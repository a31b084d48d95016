// The published site's forms as HTML (R-VIS-1): plain HTML forms that work without any
// script (the site's CSP allows none). Accessible as the GOV.UK pattern does it: every field has a
// visible label; after a refusal an error summary links to each field, and each message sits under
// its label, tied to the input by aria-describedby with aria-invalid set; the first wrong field gets
// autofocus. The honeypot is off-screen, out of the tab order and hidden from screen readers.
// Everything a visitor typed comes back only as escaped attribute or text content.
import { escapeHtml as e } from '../../kernel/html.js';

export type FormState = {
  values: Record<string, string>;
  errors: Record<string, string>;
  /** A message above the fields (sent too fast, too old, rate-limited). */
  notice?: string;
};

/** What a page needs to draw forms; `actionBase` null = the draft preview (shown, disabled). */
export type SiteForms = {
  /** Where forms post: `<base>/_forms/` + `contact` or `book/<service id>`. */
  actionBase: string | null;
  token: string;
  honeypot: string;
  tokenField: string;
  /** The state of one form after a refusal: which one (section id or service id), and its values. */
  state?: { target: string } & FormState;
};

type Field = {
  name: string;
  label: string;
  type: 'text' | 'email' | 'tel' | 'date' | 'time' | 'textarea';
  autocomplete?: string;
  required: boolean;
  maxlength?: number;
  hint?: string;
};

function field(id: string, f: Field, st: FormState | undefined, first: boolean): string {
  const fid = `${id}-${f.name}`;
  const err = st?.errors[f.name];
  const value = st?.values[f.name] ?? '';
  const describedBy = [f.hint ? `${fid}-hint` : '', err ? `${fid}-error` : ''].filter(Boolean).join(' ');
  const attrs = [
    `id="${fid}"`,
    `name="${f.name}"`,
    f.required ? 'required aria-required="true"' : '',
    f.autocomplete ? `autocomplete="${f.autocomplete}"` : '',
    f.maxlength ? `maxlength="${f.maxlength}"` : '',
    describedBy ? `aria-describedby="${describedBy}"` : '',
    err ? 'aria-invalid="true"' : '',
    err && first ? 'autofocus' : '',
  ]
    .filter(Boolean)
    .join(' ');
  const control =
    f.type === 'textarea'
      ? `<textarea ${attrs} rows="6">${e(value)}</textarea>`
      : `<input type="${f.type}" ${attrs} value="${e(value)}">`;
  const label = `${e(f.label)}${f.required ? '' : ' <span class="optional">(optional)</span>'}`;
  return `<div class="field${err ? ' has-error' : ''}"><label for="${fid}">${label}</label>${
    f.hint ? `<p class="field-hint" id="${fid}-hint">${e(f.hint)}</p>` : ''
  }${err ? `<p class="field-error" id="${fid}-error"><span class="visually-hidden">Error: </span>${e(err)}</p>` : ''}${control}</div>`;
}

function form(opts: {
  id: string;
  action: string;
  title: string;
  submit: string;
  hidden: Record<string, string>;
  fields: Field[];
  forms: SiteForms;
  target: string;
  privacy: string;
}): string {
  const { id, forms } = opts;
  const st = forms.state?.target === opts.target ? forms.state : undefined;
  const wrong = opts.fields.filter((f) => st?.errors[f.name]);
  const summary = wrong.length
    ? `<div class="error-summary" role="alert" aria-labelledby="${id}-problems"><h4 id="${id}-problems">Please check ${wrong.length === 1 ? 'one field' : `${wrong.length} fields`}</h4><ul>${wrong
        .map((f) => `<li><a href="#${id}-${f.name}">${e(st!.errors[f.name]!)}</a></li>`)
        .join('')}</ul></div>`
    : '';
  const notice = st?.notice ? `<div class="form-notice" role="alert">${e(st.notice)}</div>` : '';
  const hidden = Object.entries({ ...opts.hidden, [forms.tokenField]: forms.token })
    .map(([k, v]) => `<input type="hidden" name="${e(k)}" value="${e(v)}">`)
    .join('');
  const honeypot = `<div class="hp" aria-hidden="true"><label for="${id}-${forms.honeypot}">Leave this field empty</label><input type="text" id="${id}-${forms.honeypot}" name="${forms.honeypot}" tabindex="-1" autocomplete="off" value=""></div>`;
  const preview = forms.actionBase === null;
  const fields = opts.fields.map((f, i) => field(id, f, st, i === opts.fields.indexOf(wrong[0]!))).join('');
  return `<form class="site-form" id="${id}" method="post"${preview ? '' : ` action="${e(forms.actionBase + opts.action)}"`} novalidate aria-labelledby="${id}-title"><h3 id="${id}-title">${e(opts.title)}</h3>${
    preview
      ? '<p class="form-notice">Preview: the form works on the published site; here it sends nothing.</p>'
      : ''
  }${notice}${summary}<fieldset${preview ? ' disabled' : ''}><legend class="visually-hidden">${e(opts.title)}</legend>${hidden}${fields}${honeypot}<p class="form-privacy">${e(opts.privacy)}</p><button type="submit" class="btn">${e(opts.submit)}</button></fieldset></form>`;
}

const NAME: Field = {
  name: 'name',
  label: 'Your name',
  type: 'text',
  autocomplete: 'name',
  required: true,
  maxlength: 120,
};
const EMAIL: Field = {
  name: 'email',
  label: 'Email address',
  type: 'email',
  autocomplete: 'email',
  required: true,
  maxlength: 254,
};

/** The contact form of one contact section. */
export function contactForm(sectionId: string, forms: SiteForms): string {
  return form({
    id: `contact-${sectionId}`,
    action: 'contact',
    title: 'Send a message',
    submit: 'Send message',
    hidden: { section: sectionId },
    target: sectionId,
    forms,
    privacy: 'Your details go only to this business, to answer you.',
    fields: [
      NAME,
      EMAIL,
      { name: 'phone', label: 'Phone', type: 'tel', autocomplete: 'tel', required: false, maxlength: 40 },
      { name: 'message', label: 'Message', type: 'textarea', required: true, maxlength: 4000 },
    ],
  });
}

/** The request form of one bookable service. */
export function bookingForm(serviceId: string, timeZone: string, forms: SiteForms): string {
  return form({
    id: `book-${serviceId}`,
    action: `book/${serviceId}`,
    title: 'Request a booking',
    submit: 'Send booking request',
    hidden: {},
    target: serviceId,
    forms,
    privacy: 'This is a request: the business confirms the time by email. Your details go only to them.',
    fields: [
      {
        name: 'date',
        label: 'Preferred date',
        type: 'date',
        required: true,
        hint: 'For example 2026-12-24.',
      },
      {
        name: 'time',
        label: 'Preferred time',
        type: 'time',
        required: true,
        hint: `Local time (${timeZone}).`,
      },
      NAME,
      EMAIL,
      { name: 'note', label: 'Note', type: 'textarea', required: false, maxlength: 2000 },
    ],
  });
}

export const FORM_CSS = `.site-form{max-width:36rem;margin-top:1.5rem}.site-form fieldset{border:0;margin:0;padding:0}
.field{margin:0 0 1rem}.field label{display:block;font-weight:600;margin-bottom:.25rem}.optional{font-weight:400}
.field input,.field textarea{display:block;width:100%;padding:.6rem .7rem;font:inherit;color:inherit;background:#fff;border:1px solid #6b6b6b;border-radius:6px}
.field input:focus,.field textarea:focus,.btn:focus,.error-summary a:focus{outline:3px solid var(--accent);outline-offset:2px}
.field-hint{margin:0 0 .25rem;color:#555;font-size:.9rem}.field-error{margin:0 0 .25rem;color:#b00020;font-weight:600}
.has-error input,.has-error textarea{border:2px solid #b00020}.error-summary{border:3px solid #b00020;padding:1rem;margin:0 0 1rem;border-radius:6px}
.error-summary h4{margin:0 0 .5rem}.error-summary a{color:#b00020}.form-notice{background:#fff3cd;color:#5c4400;padding:.75rem 1rem;border-radius:6px;margin:0 0 1rem}
.form-privacy{font-size:.9rem;color:#555}button.btn{border:0;font:inherit;cursor:pointer}fieldset[disabled] .btn{opacity:.6;cursor:not-allowed}
.hp{position:absolute;left:-10000px;top:auto;width:1px;height:1px;overflow:hidden}
.visually-hidden{position:absolute!important;width:1px;height:1px;margin:-1px;padding:0;overflow:hidden;clip:rect(0 0 0 0);border:0;white-space:nowrap}`;
