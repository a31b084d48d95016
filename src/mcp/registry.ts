// Compiles the tool declarations once at load: the input schema with websiteId, the JSON Schemas
// clients see (zod 4 -> JSON Schema 2020-12) and the tools/list answer per filter (cached).
// tools/list carries complete input schemas but no output schemas: every result is the envelope of
// R-RESULT-1 and R-RESULT-2, which the server instructions describe once, and output schemas were half of the
// list (an agent's context pays for every byte). The output schemas stay in the contract.
import type { Tool } from '@modelcontextprotocol/server';
import { z } from 'zod';
import type { Caller } from '../kernel/caller.js';
import { type ListingFacts, listable } from '../gate/listing.js';
import { type PublicToolDef, type ToolDef, ParamIdempotencyKey, ParamWebsiteId } from './define-tool.js';
import { envelopeJsonSchema } from './envelope.js';
import { ALL_TOOLS } from './tools/index.js';

export type CompiledTool = {
  def: ToolDef;
  /**
   * The declared input plus `websiteId` (except workspace-level tools) and `idempotencyKey` (tools
   * declared `idempotent: 'key'`), strict: unknown keys refused.
   */
  input: z.ZodObject;
  /** What tools/list shows. */
  listing: Tool;
  /** The output schema inside the envelope: the contract (snapshot), not sent in tools/list. */
  outputSchema: Record<string, unknown>;
};

export function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown> {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as Record<
    string,
    unknown
  >;
  // The dialect is the 2025-11-25 default; leaving `$schema` out keeps draft-07 validators working too.
  delete json.$schema;
  return json;
}

/** A public tool (src/mcp/visitor/) as clients see it: its listing and its output contract. */
export function compilePublicTool(def: PublicToolDef): Omit<CompiledTool, 'def'> & { def: PublicToolDef } {
  const input = def.input.strict();
  return {
    def,
    input,
    listing: listingOf(def, input),
    outputSchema: envelopeJsonSchema(toJsonSchema(def.output, 'output')),
  };
}

const listingOf = (def: ToolDef | PublicToolDef, input: z.ZodObject): Tool => ({
  name: def.name,
  title: def.title,
  description: def.description,
  inputSchema: toJsonSchema(input, 'input') as Tool['inputSchema'],
  annotations: def.annotations,
});

function compileTool(def: ToolDef): CompiledTool {
  const site = def.workspaceLevel ? def.input : def.input.extend({ websiteId: ParamWebsiteId.optional() });
  const input = (
    def.idempotent === 'key' ? site.extend({ idempotencyKey: ParamIdempotencyKey.optional() }) : site
  ).strict();
  return {
    def,
    input,
    listing: listingOf(def, input),
    outputSchema: envelopeJsonSchema(toJsonSchema(def.output, 'output')),
  };
}

/** The facts a listing depends on, as a cache key. */
function filterKey(caller: Pick<Caller, 'scopes'>, f: ListingFacts): string {
  return [
    [...caller.scopes].sort().join(' '),
    f.siteRole,
    f.bestRole,
    [...f.withheldAreas].sort().join(' '),
    f.advancedEditor,
  ].join('|');
}

export type Registry = {
  get(name: string): CompiledTool | undefined;
  all(): CompiledTool[];
  /**
   * tools/list for a connection: only what it could run — its scopes, the creator's role, the areas
   * withheld and the advanced-editor grant. Computed once per distinct set of those facts, and the
   * same array each time, so a caller may serialise it once.
   */
  listFor(caller: Pick<Caller, 'scopes'>, facts: ListingFacts): Tool[];
};

/** Bound on the per-filter cache (distinct scope/role/area combinations seen by this process). */
const MAX_FILTERS = 512;

export function createRegistry(defs: ToolDef[] = ALL_TOOLS): Registry {
  const compiled = defs.map(compileTool);
  const byName = new Map(compiled.map((t) => [t.def.name, t]));
  if (byName.size !== compiled.length) throw new Error('duplicate tool name');
  const cache = new Map<string, Tool[]>();
  return {
    get: (name) => byName.get(name),
    all: () => compiled,
    listFor(caller, facts) {
      const key = filterKey(caller, facts);
      let list = cache.get(key);
      if (!list) {
        list = compiled
          .filter((t) => (t.def.authorizedBy ?? [t.def]).some((rule) => listable(caller, rule, facts)))
          .map((t) => t.listing);
        if (cache.size >= MAX_FILTERS) cache.clear();
        cache.set(key, list);
      }
      return list;
    },
  };
}
