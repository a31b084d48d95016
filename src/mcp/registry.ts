// Compiles the tool declarations once at load: the input schema with websiteId, the JSON Schemas
// clients see (zod 4 -> JSON Schema 2020-12) and the tools/list answer per scope set (cached).
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Scope } from '../gate/scopes.js';
import { type ToolDef, ParamWebsiteId } from './define-tool.js';
import { envelopeJsonSchema } from './envelope.js';
import { ALL_TOOLS } from './tools/index.js';

export type CompiledTool = {
  def: ToolDef;
  /** The declared input plus `websiteId` (except workspace-level tools), strict: unknown keys refused. */
  input: z.ZodObject;
  listing: Tool;
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

export function compileTool(def: ToolDef): CompiledTool {
  const input = (
    def.workspaceLevel ? def.input : def.input.extend({ websiteId: ParamWebsiteId.optional() })
  ).strict();
  return {
    def,
    input,
    listing: {
      name: def.name,
      title: def.title,
      description: def.description,
      inputSchema: toJsonSchema(input, 'input') as Tool['inputSchema'],
      outputSchema: envelopeJsonSchema(toJsonSchema(def.output, 'output')) as Tool['outputSchema'],
      annotations: { title: def.title, ...def.annotations },
    },
  };
}

export type Registry = {
  get(name: string): CompiledTool | undefined;
  all(): CompiledTool[];
  /** tools/list for a connection: only the tools its scopes allow, computed once per scope set. */
  listFor(scopes: readonly Scope[]): Tool[];
};

export function createRegistry(defs: ToolDef[] = ALL_TOOLS): Registry {
  const compiled = defs.map(compileTool);
  const byName = new Map(compiled.map((t) => [t.def.name, t]));
  if (byName.size !== compiled.length) throw new Error('duplicate tool name');
  const cache = new Map<string, Tool[]>();
  return {
    get: (name) => byName.get(name),
    all: () => compiled,
    listFor(scopes) {
      const key = [...scopes].sort().join(' ');
      let list = cache.get(key);
      if (!list) {
        list = compiled.filter((t) => scopes.includes(t.def.scope)).map((t) => t.listing);
        cache.set(key, list);
      }
      return list;
    },
  };
}
