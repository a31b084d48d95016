// What the owner must redo after a migration (R-MIG-4), and how the calling connection can reach the site it
// just made (R-MIG-4: a single-site connection cannot; say so and point to the Developers page).
import type { ConvertedPage } from './convert.js';
import type { CrawledPage } from './crawler.js';
import { plural } from '../kernel/plural.js';

const BOOKING_SCRIPT =
  /calendly|acuity|squareup|setmore|simplybook|fresha|booksy|opentable|resy|youcanbook|tockhq|cal\.com/i;

/** Scripts a page ran (inline or by address), not counting data blocks or booking widgets. */
function countScripts(html: string): number {
  let n = 0;
  for (const m of html.matchAll(/<script\b([^>]*)>/gi)) {
    if (/type\s*=\s*["']?application\/(ld\+)?json/i.test(m[1] ?? '')) continue;
    if (!BOOKING_SCRIPT.test(m[1] ?? '')) n += 1;
  }
  return n;
}

export function requiredActions(
  converted: readonly ConvertedPage[],
  pages: readonly CrawledPage[],
  report: {
    failedPages: ReadonlyArray<{ url: string }>;
    skippedAssets: ReadonlyArray<{ url: string }>;
    dropped: number;
    unlinked: ReadonlySet<string>;
  },
): string[] {
  const actions = [...new Set(converted.flatMap((c) => c.actions))];
  const scripts = pages.reduce((n, p) => n + countScripts(p.html), 0);
  if (scripts)
    actions.push(
      `Re-add any third-party scripts you still need (analytics, chat): ${plural(scripts, 'script')} ${scripts === 1 ? 'was' : 'were'} left out.`,
    );
  if (report.failedPages.length)
    actions.push(
      `${plural(report.failedPages.length, 'page')} could not be fetched and ${report.failedPages.length === 1 ? 'was' : 'were'} not migrated; links to them were turned into plain text (see failedPages).`,
    );
  if (report.unlinked.size) {
    const list = [...report.unlinked].sort();
    actions.push(
      `Links to ${plural(list.length, 'address', 'addresses')} of the old site that were not migrated (robots.txt, limits or files) became plain text: ${list.slice(0, 8).join(', ')}${list.length > 8 ? ', …' : ''}. Re-link them if you still need them.`,
    );
  }
  if (report.skippedAssets.length)
    actions.push(
      `Upload ${plural(report.skippedAssets.length, 'image')} that could not be brought in, where you still want them (see skippedAssets).`,
    );
  if (report.dropped)
    actions.push(
      `${plural(report.dropped, 'section')} could not be converted and ${report.dropped === 1 ? 'was' : 'were'} left out: check the draft.`,
    );
  return actions;
}

export type Reach = { thisConnection: boolean; how: string };

/** How the connection that ran an import can reach the site it created or merged into. */
export function reachOf(
  caller: { reach: 'website' | 'workspace'; websiteId: string },
  result: { websiteId: string; editorUrl: string; mode: 'created' | 'merged' },
  baseUrl: string,
): Reach {
  if (caller.reach === 'workspace')
    return {
      thisConnection: true,
      how: `Pass websiteId "${result.websiteId}" to list_pages, get_page and the editing tools. The owner previews the draft at ${result.editorUrl}.`,
    };
  if (result.websiteId === caller.websiteId)
    return { thisConnection: true, how: 'This connection is for this website: omit websiteId.' };
  return {
    thisConnection: false,
    how: `This connection is limited to one other website, so it cannot read or edit the new site (${result.websiteId}): calls naming it answer not_found. The owner previews the draft at ${result.editorUrl} and can create a connection for it (or a workspace connection) on the Developers page: ${baseUrl}/settings/advanced/developers.`,
  };
}
