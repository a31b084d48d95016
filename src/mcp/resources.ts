// The four read-only resources of SPEC §2, for the connection's default site. Each is the data of the
// matching site:read tool, read through the same call path (gate, limits, Activity).
import {
  McpError,
  ErrorCode,
  type ReadResourceResult,
  type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import type { Caller } from '../auth/caller.js';
import { type CallDeps, callTool } from './call.js';

export const RESOURCE_SCHEME = 'sitegate';

const RESOURCES: Array<{ path: string; name: string; title: string; description: string; tool: string }> = [
  {
    path: 'overview',
    name: 'site-overview',
    title: 'Site overview',
    description: 'The default site at a glance.',
    tool: 'get_site_overview',
  },
  {
    path: 'pages',
    name: 'site-pages',
    title: 'Pages',
    description: 'Draft pages and their section ids.',
    tool: 'list_pages',
  },
  {
    path: 'draft-changes',
    name: 'site-draft-changes',
    title: 'Draft changes',
    description: 'What is not live yet.',
    tool: 'list_draft_changes',
  },
  {
    path: 'brand',
    name: 'site-brand',
    title: 'Brand',
    description: 'Palette, fonts, style, voice and Company Memory.',
    tool: 'get_brand',
  },
];

export function listResources(): Resource[] {
  return RESOURCES.map((r) => ({
    uri: `${RESOURCE_SCHEME}://site/${r.path}`,
    name: r.name,
    title: r.title,
    description: r.description,
    mimeType: 'application/json',
  }));
}

export async function readResource(deps: CallDeps, caller: Caller, uri: string): Promise<ReadResourceResult> {
  const r = RESOURCES.find((x) => `${RESOURCE_SCHEME}://site/${x.path}` === uri);
  if (!r) throw new McpError(ErrorCode.InvalidParams, `Unknown resource ${uri.slice(0, 100)}`);
  // The default site: a workspace connection's own website, named explicitly.
  const result = await callTool(
    deps,
    caller,
    r.tool,
    caller.reach === 'workspace' ? { websiteId: caller.websiteId } : {},
  );
  const structured = result.structuredContent as
    | { ok: boolean; data?: unknown; error?: { message: string } }
    | undefined;
  if (!structured?.ok) {
    throw new McpError(
      ErrorCode.InvalidRequest,
      structured?.error?.message ?? 'The resource could not be read.',
    );
  }
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(structured.data) }] };
}
