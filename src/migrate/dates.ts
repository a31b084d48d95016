// Dates as pages print them, read into an ISO date (R-MIG-3: a post keeps the day it was written):
// "March 14, 2025", "14 March 2026", "2026-03-12", "3 February 2026, 9:30", a `<time datetime>`,
// an address such as /2025/03/14/slug. Only a whole, real calendar date is accepted; anything else is
// no date at all (the post is then dated the day of the migration, and the report says so).

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];

/** A date as post cards and bylines print it: "March 12, 2026", "14 March 2026", "2026-03-12". */
export const DATE =
  /\b(?:(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\.? \d{1,2}(?:st|nd|rd|th)?,? \d{4}|\d{1,2}(?:st|nd|rd|th)? (?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*,? \d{4}|\d{4}-\d{2}-\d{2})\b/i;

function iso(y: number, m: number, d: number): string | null {
  const at = new Date(Date.UTC(y, m - 1, d));
  if (y < 1990 || y > 2100 || at.getUTCMonth() !== m - 1 || at.getUTCDate() !== d) return null;
  return at.toISOString().slice(0, 10);
}

/** The first date written in `text`, as YYYY-MM-DD, or null. */
export function dateInText(text: string): string | null {
  const m = DATE.exec(text.replace(/\s+/g, ' '));
  if (!m) return null;
  const s = m[0].toLowerCase().replace(/(\d)(st|nd|rd|th)/, '$1');
  const numeric = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
  if (numeric) return iso(Number(numeric[1]), Number(numeric[2]), Number(numeric[3]));
  const month = MONTHS.findIndex((name) => new RegExp(`\\b${name}`).test(s)) + 1;
  const nums = s.match(/\d+/g)!.map(Number);
  const year = nums.find((n) => n > 31)!;
  const day = nums.find((n) => n <= 31)!;
  return iso(year, month, day);
}

/** A machine-readable date or date-time (`<time datetime>`, meta tags, JSON-LD), as YYYY-MM-DD. */
export function dateOfAttribute(value: string): string | null {
  const m = /^\s*(\d{4})-(\d{2})-(\d{2})/.exec(value);
  return m ? iso(Number(m[1]), Number(m[2]), Number(m[3])) : null;
}

/** The date in a post's address: /2025/03/14/slug or /2025-03-14-slug (a year and month alone is not a day). */
export function dateInPath(path: string): string | null {
  const m = /\/((?:19|20)\d{2})[/-](0[1-9]|1[0-2])[/-](0[1-9]|[12]\d|3[01])(?:[/-]|$)/.exec(path);
  return m ? iso(Number(m[1]), Number(m[2]), Number(m[3])) : null;
}
