// The tool registry: every tool declares its gate rule and annotations, the names are a subset of
// SPEC §4.5's catalogue (no human-only action ever appears), every tool has a test that calls it over
// MCP and checks a refusal, and the contract clients see is snapshotted one file per tool
// (test/__snapshots__/tools/<name>.json), so a change shows up in review as that tool's diff.
import { readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../src/kernel/errors.js';
import { AREAS, ROLES, SCOPES } from '../../src/kernel/scopes.js';
import { createRegistry } from '../../src/mcp/registry.js';

/** SPEC.md §4.5, scope column first. */
const CATALOGUE: Record<string, string> = {
  list_sites: 'site:read',
  get_site_overview: 'site:read',
  list_pages: 'site:read',
  get_page: 'site:read',
  list_draft_changes: 'site:read',
  get_brand: 'site:read',
  get_analytics_summary: 'site:read',
  update_section_text: 'content:write',
  update_page_seo: 'content:write',
  add_section: 'content:write',
  move_section: 'content:write',
  set_section_hidden: 'content:write',
  create_page: 'content:write',
  create_blog_post: 'content:write',
  get_section_json: 'content:write',
  replace_section_content: 'content:write',
  set_section_layout: 'content:write',
  import_site: 'content:write',
  migrate_site_from_url: 'content:write',
  publish_site: 'publish',
  prepare_publish: 'publish',
  prepare_unpublish: 'publish',
  confirm_pending_action: '*',
  list_services: 'commerce:write',
  create_service: 'commerce:write',
  list_products: 'commerce:write',
  create_product: 'commerce:write',
  get_commerce_overview: 'commerce:write',
  prepare_publish_product: 'commerce:write',
  update_business_name: 'settings:write',
  prepare_search_visibility: 'settings:write',
  list_domains: 'domain:write',
  connect_domain: 'domain:write',
  set_primary_domain: 'domain:write',
  list_access: 'access:write',
  prepare_grant_access: 'access:write',
  list_sendable_documents: 'communications:write',
  prepare_send_document: 'communications:write',
  generate_image: 'ai:generate',
  create_site: 'workspace:write',
  prepare_create_company: 'workspace:write',
  list_leads: 'crm:read',
  list_bookings: 'crm:read',
  list_contacts: 'crm:read',
  crm_update: 'crm:write',
};
const ADVANCED = ['get_section_json', 'replace_section_content', 'set_section_layout'];
const OWNER_ONLY = ['connect_domain', 'set_primary_domain', 'prepare_grant_access', 'list_domains'];
/** SPEC §1 human-only actions: no tool may even resemble them. */
const HUMAN_ONLY =
  /delete|erase|remove|revoke|billing|payment|purchase|buy|renew|transfer|head_code|custom_code|member/;

const registry = createRegistry();

function testFiles(dir: string, out: string[] = []): string[] {
  for (const f of readdirSync(dir)) {
    const p = path.join(dir, f);
    if (statSync(p).isDirectory()) testFiles(p, out);
    else if (/\.test\.tsx?$/.test(f) && f !== 'registry.test.ts') out.push(p);
  }
  return out;
}

/**
 * Tools with no test yet that calls them over MCP and checks a refusal. This list only shrinks:
 * the test below fails when a tool here gains such a test (take it off) and when a tool not here
 * lacks one.
 */
const NO_REFUSAL_TEST_YET: readonly string[] = [];

// A call over the MCP client: `s.call(token, 'name', …)`, a file's own `call…(token, 'name', …)` helper,
// or the SDK's `callTool({ name: 'name', … })`.
const LITERAL_CALL =
  /\b(?:call\w*|callTool)\(\s*(?:[^,()]+(?:\([^()]*\))?[^,()]*,\s*|\{\s*name:\s*)'([a-z]+(?:_[a-z]+)+)'/g;
// A table-driven call: `s.call(token, tool, …)` over rows that start `['name', …]`.
const TABLE_CALL = /\bcall\w*\(\s*[^,()]+(?:\([^()]*\))?[^,()]*,\s*[a-zA-Z]\w*\s*[,)]/g;
// The result's refusal checked: its error code, or isError/ok asserted on it.
const REFUSAL = new RegExp(
  `error\\??\\.code|isError\\)\\.toBe\\(true\\)|\\.ok\\)\\.toBe\\(false\\)|'(?:${ERROR_CODES.join('|')})'`,
);

/** Each call's text up to the next call (at most 900 characters): where its result is checked. */
function windows(text: string): Array<{ index: number; text: string; tool?: string }> {
  const calls = [...text.matchAll(LITERAL_CALL), ...text.matchAll(TABLE_CALL)].sort(
    (a, b) => a.index - b.index,
  );
  return calls.map((m, i) => ({
    index: m.index,
    tool: m[1],
    text: text.slice(m.index, Math.min(calls[i + 1]?.index ?? Number.POSITIVE_INFINITY, m.index + 900)),
  }));
}

/** A row of a case table: `['name', …]`, `name: (d) => …`, or an item of `for (… of ['a', 'name'])`. */
function inTable(text: string, name: string): boolean {
  return (
    text.includes(`['${name}'`) ||
    new RegExp(`^\\s*${name}:\\s*\\(`, 'm').test(text) ||
    new RegExp(`\\bof \\[[^\\]]*'${name}'`).test(text)
  );
}

/** The tools some test calls over MCP and then checks for a refusal. */
function toolsWithRefusalTests(names: readonly string[]): Set<string> {
  const out = new Set<string>();
  for (const file of testFiles(path.resolve('test'))) {
    const text = readFileSync(file, 'utf8');
    for (const w of windows(text)) {
      if (!REFUSAL.test(w.text)) continue;
      if (w.tool) out.add(w.tool);
      else for (const n of names) if (inTable(text, n)) out.add(n);
    }
  }
  return out;
}

describe('tool registry', () => {
  const tools = registry.all();

  it.each(tools.map((t) => [t.def.name, t] as const))('%s declares its rule and annotations', (name, t) => {
    expect(name).toMatch(/^[a-z]+(_[a-z]+)+$/);
    expect(Object.keys(CATALOGUE)).toContain(name);
    if (CATALOGUE[name] !== '*') expect(t.def.scope).toBe(CATALOGUE[name]);
    expect(SCOPES).toContain(t.def.scope);
    expect(AREAS).toContain(t.def.area);
    expect(ROLES).toContain(t.def.role);
    expect(Boolean(t.def.advanced)).toBe(ADVANCED.includes(name));
    if (OWNER_ONLY.includes(name)) expect(t.def.role).toBe('owner');
    for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) {
      expect(typeof t.def.annotations[hint]).toBe('boolean');
    }
    if (t.def.annotations.readOnlyHint) expect(t.def.annotations.destructiveHint).toBe(false);
    expect(t.def.description.length).toBeGreaterThan(20);
    expect(HUMAN_ONLY.test(name)).toBe(false);
  });

  it('every tool has a test that calls it over MCP and checks a refusal (allow-list only shrinks)', () => {
    const names = tools.map((t) => t.def.name);
    const covered = toolsWithRefusalTests(names);
    expect(names.filter((n) => !covered.has(n)).sort()).toEqual([...NO_REFUSAL_TEST_YET].sort());
  });

  it('input schemas take websiteId except the workspace-level tools, and refuse unknown keys', () => {
    for (const t of tools) {
      const props = (t.listing.inputSchema.properties ?? {}) as Record<string, unknown>;
      expect('websiteId' in props).toBe(!t.def.workspaceLevel);
      expect(t.listing.inputSchema.additionalProperties).toBe(false);
    }
  });

  // tools/list omits output schemas; the contract keeps them so a change shows up in review.
  it.each(tools.map((t) => [t.def.name, t] as const))(
    '%s: the contract clients see matches its snapshot file',
    async (name, t) => {
      const contract = { ...t.listing, outputSchema: t.outputSchema, scope: t.def.scope, area: t.def.area };
      await expect(`${JSON.stringify(contract, null, 2)}\n`).toMatchFileSnapshot(
        `../__snapshots__/tools/${name}.json`,
      );
    },
  );

  it('the snapshot folder holds one file per tool and nothing else', () => {
    const files = readdirSync(path.resolve('test/__snapshots__/tools')).sort();
    expect(files).toEqual(tools.map((t) => `${t.def.name}.json`).sort());
  });
});
