// The four read-only resources (R-DATA-1), for the connection's default site, and one template for a
// single page. Each is the data of the matching site:read tool, read through the same call path
// (gate, limits, Activity). A URI that names none of them is the protocol's resource-not-found
// (-32602 with data.uri, MCP 2026-07-28); a refusal of the call path is an invalid request.
import {
  ProtocolError,
  ProtocolErrorCode,
  type ReadResourceResult,
  type Resource,
  ResourceNotFoundError,
  type ResourceTemplateType,
} from '@modelcontextprotocol/server';
import type { Caller } from '../kernel/caller.js';
import { type CallDeps, callTool } from './call.js';

const RESOURCE_SCHEME = 'sitegate';

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

const PAGE_PREFIX = `${RESOURCE_SCHEME}://site/pages/`;

export const RESOURCE_TEMPLATES: ResourceTemplateType[] = [
  {
    uriTemplate: `${PAGE_PREFIX}{pageId}`,
    name: 'site-page',
    title: 'Page',
    description:
      'One draft page of the default site with its sections (page ids come from the pages resource).',
    mimeType: 'application/json',
  },
];

/** The tool and arguments a resource URI reads, or null when it names no resource. */
function target(uri: string): { tool: string; args: Record<string, unknown> } | null {
  const r = RESOURCES.find((x) => `${RESOURCE_SCHEME}://site/${x.path}` === uri);
  if (r) return { tool: r.tool, args: {} };
  const pageId = uri.startsWith(PAGE_PREFIX) ? uri.slice(PAGE_PREFIX.length) : '';
  if (/^[\w-]{1,64}$/.test(pageId)) return { tool: 'get_page', args: { pageId } };
  return null;
}

export async function readResource(deps: CallDeps, caller: Caller, uri: string): Promise<ReadResourceResult> {
  const t = target(uri);
  if (!t) throw new ResourceNotFoundError(uri.slice(0, 500));
  // The default site: a workspace connection's own website, named explicitly.
  const site = caller.reach === 'workspace' ? { websiteId: caller.websiteId } : {};
  const result = await callTool(deps, caller, deps.registry.get(t.tool)!, { ...t.args, ...site });
  const structured = result.structuredContent as
    | { ok: boolean; data?: unknown; error?: { code: string; message: string } }
    | undefined;
  // A page that does not exist (or is another site's) is a resource that does not exist.
  if (structured?.error?.code === 'not_found' && t.tool === 'get_page') throw new ResourceNotFoundError(uri);
  if (!structured?.ok) {
    throw new ProtocolError(
      ProtocolErrorCode.InvalidRequest,
      structured?.error?.message ?? 'The resource could not be read.',
    );
  }
  return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(structured.data) }] };
}
