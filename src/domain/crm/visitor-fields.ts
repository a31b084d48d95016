// What a visitor may type into the published site's forms (R-VIS-1): each field trimmed,
// size-capped and checked, with a plain-language message per field for the form to show beside it.
// The text stays untrusted: it is stored as written (minus surrounding blanks) and fenced on the way
// out (src/domain/untrusted.ts); only what would break storage or the page is refused here.
import { z } from 'zod';

// biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const SINGLE_LINE = /[\r\n\t]/;

const count = (n: number) => n.toLocaleString('en');

/** Free text of at most `max` characters; `multiline` allows line breaks (messages, notes). */
export const VisitorText = (label: string, max: number, opts: { multiline?: boolean } = {}) =>
  z
    .string()
    .trim()
    .max(max, {
      error: (i) =>
        `${label} is too long: at most ${count(max)} characters (this one has ${count(String(i.input).length)}).`,
    })
    .refine((s) => !CONTROL.test(s) && !LONE_SURROGATE.test(s), {
      error: `${label} contains characters that cannot be stored; please retype it.`,
    })
    .refine((s) => opts.multiline || !SINGLE_LINE.test(s), { error: `${label} must be on one line.` });

export const VisitorName = VisitorText('Your name', 120).pipe(
  z.string().min(1, { error: 'Please enter your name.' }),
);
export const VisitorEmail = z
  .string()
  .trim()
  .min(1, { error: 'Please enter your email address, so the business can reply.' })
  .max(254, { error: 'That email address is too long.' })
  .pipe(z.email({ error: 'Please enter an email address like name@example.com.' }));
export const VisitorPhone = VisitorText('The phone number', 40).refine(
  (s) => s === '' || /^[+()\d\s./-]{5,40}$/.test(s),
  {
    error:
      'Please enter a phone number with digits only (spaces, +, - and brackets are fine), or leave it empty.',
  },
);

export type FieldErrors = Record<string, string>;

/** Parses the named fields of a form; the first problem of each field, keyed by field name. */
export function parseFields<S extends z.ZodRawShape>(
  shape: S,
  fields: Record<string, string>,
): { ok: true; value: z.infer<z.ZodObject<S>> } | { ok: false; errors: FieldErrors } {
  const input: Record<string, string> = {};
  // Browsers send a textarea's line breaks as CRLF (the HTML standard's form submission); stored text uses LF.
  for (const k of Object.keys(shape)) input[k] = (fields[k] ?? '').replace(/\r\n?/g, '\n');
  const r = z.object(shape).safeParse(input);
  if (r.success) return { ok: true, value: r.data };
  const errors: FieldErrors = {};
  for (const issue of r.error.issues) {
    const k = String(issue.path[0] ?? '');
    errors[k] ??= issue.message;
  }
  return { ok: false, errors };
}

/** The form's own values, capped, to fill the form again after a refusal (never stored). */
export function echoValues(names: readonly string[], fields: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of names) out[k] = (fields[k] ?? '').slice(0, 10_000);
  return out;
}
