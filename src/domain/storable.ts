// What can be stored at all (R-SEC-2). PostgreSQL text cannot hold U+0000, a lone UTF-16
// surrogate is not a character in any encoding the database or a browser round-trips, an object
// nested thousands deep only exists to exhaust a parser, and a `__proto__` key only exists to reach
// an object's prototype. Such input is the caller's mistake (`invalid_input`, nothing written), never
// an "operation failed" that the error log would then describe with the request's own values.
// One walk over the whole input, iterative (a deep input cannot exhaust the stack) and bounded.

const MAX_INPUT_DEPTH = 64;
const MAX_INPUT_NODES = 200_000;

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Why a string cannot be stored, or null when it can. */
function unstorableText(s: string): string | null {
  if (s.includes('\u0000')) return 'contains a NUL character (U+0000)';
  if (LONE_SURROGATE.test(s)) return 'contains a lone UTF-16 surrogate (not a character)';
  return null;
}

/**
 * The first reason `value` cannot be stored, naming where (a path such as `content.items.3.text`),
 * or null. Strings, object keys, depth, size and prototype keys are all checked.
 */
export function unstorableInput(value: unknown): string | null {
  const stack: Array<{ v: unknown; path: string; depth: number }> = [{ v: value, path: '', depth: 0 }];
  let nodes = 0;
  while (stack.length > 0) {
    const { v, path, depth } = stack.pop()!;
    nodes += 1;
    if (nodes > MAX_INPUT_NODES)
      return `the input has more than ${MAX_INPUT_NODES.toLocaleString('en')} values`;
    const at = path || '(input)';
    if (typeof v === 'string') {
      const why = unstorableText(v);
      if (why) return `${at} ${why}`;
      continue;
    }
    if (v === null || typeof v !== 'object') continue;
    if (depth >= MAX_INPUT_DEPTH) return `${at} is nested more than ${MAX_INPUT_DEPTH} levels deep`;
    const entries = Array.isArray(v) ? v.map((x, i) => [String(i), x] as const) : Object.entries(v);
    for (const [k, x] of entries) {
      if (k === '__proto__') return `${at} has a key named __proto__`;
      const why = unstorableText(k);
      if (why) return `a key in ${at} ${why}`;
      stack.push({ v: x, path: path ? `${path}.${k.slice(0, 40)}` : k.slice(0, 40), depth: depth + 1 });
    }
  }
  return null;
}

/**
 * A date a business can mean: the years 1970 to 9999. Year 0000 parses in JavaScript but not in
 * PostgreSQL, and a date that far off is a typing mistake, not a follow-up.
 */
export function plausibleDate(iso: string): boolean {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return false;
  const year = new Date(t).getUTCFullYear();
  return year >= 1970 && year <= 9999;
}
