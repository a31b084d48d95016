// The tool registry: every tool declares its gate rule and annotations, the names are a subset of
// the catalogue below (no human-only action ever appears, R-SURF-6), every tool has its own test file
// test/tools/<name>.test.ts (its contract snapshot, one success, one refusal that wrote nothing), and
// the contract clients see is snapshotted one file per tool (test/__snapshots__/tools/<name>.json), so
// a change shows up in review as that tool's diff.
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AREAS, ROLES, SCOPES } from '../../src/kernel/scopes.js';
import { createRegistry } from '../../src/mcp/registry.js';

/** Every tool there is, with its scope (R-TOOL-1). */
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
/** Human-only actions (R-SURF-6): no tool may even resemble them. */
const HUMAN_ONLY =
  /delete|erase|remove|revoke|billing|payment|purchase|buy|renew|transfer|head_code|custom_code|member/;

const registry = createRegistry();

/**
 * Tools whose file in test/tools is not written yet: empty now that every tool has one. The test below
 * fails when a tool here gains its file (take it off) and when a tool not here lacks one, so a new tool
 * without its file has to be named here on purpose.
 */
const NO_TOOL_FILE_YET: readonly string[] = [];

const TOOL_TESTS = path.resolve('test/tools');
const toolTestFiles = () => readdirSync(TOOL_TESTS).filter((f) => f.endsWith('.test.ts'));

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

  it('every tool has its test file test/tools/<name>.test.ts, which checks its contract (allow-list only shrinks)', () => {
    const names = tools.map((t) => t.def.name);
    const files = new Set(toolTestFiles());
    const without = names.filter((n) => !files.has(`${n}.test.ts`));
    expect(without.sort()).toEqual([...NO_TOOL_FILE_YET].sort());
    // The registry no longer checks these contracts (below, only the allow-listed ones): each file does.
    for (const n of names.filter((x) => files.has(`${x}.test.ts`))) {
      const text = readFileSync(path.join(TOOL_TESTS, `${n}.test.ts`), 'utf8');
      expect(text, `${n}.test.ts checks its contract`).toContain(`expectContract('${n}')`);
    }
  });

  it('no test file in test/tools names a tool that does not exist', () => {
    const names = new Set(tools.map((t) => t.def.name));
    const stray = toolTestFiles().filter((f) => !names.has(f.replace(/\.test\.ts$/, '')));
    expect(stray).toEqual([]);
  });

  it('input schemas take websiteId except the workspace-level tools, and refuse unknown keys', () => {
    for (const t of tools) {
      const props = (t.listing.inputSchema.properties ?? {}) as Record<string, unknown>;
      expect('websiteId' in props).toBe(!t.def.workspaceLevel);
      expect(t.listing.inputSchema.additionalProperties).toBe(false);
    }
  });

  // tools/list omits output schemas; the contract keeps them so a change shows up in review. A tool with
  // its own test file checks its snapshot there (test/tools/kit.ts expectContract); these are the rest.
  it.each(tools.filter((t) => NO_TOOL_FILE_YET.includes(t.def.name)).map((t) => [t.def.name, t] as const))(
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
