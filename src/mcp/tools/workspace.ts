// Workspace tools (R-SITE-1): create_site, unattended. (prepare_create_company is
// on the reviewed rail, in the plans area.)
import { z } from 'zod';
import { createSite } from '../../domain/workspace/create-site.js';
import { defineTool } from '../define-tool.js';

export const create_site = defineTool({
  name: 'create_site',
  title: 'Create a site',
  description:
    'Creates one new, empty, unpublished draft website named after the business in this workspace; you become its owner. It has no pages yet (add them with create_page on the new websiteId). Fails with site_limit_reached when the plan’s site limit is reached.',
  scope: 'workspace:write',
  area: 'workspace',
  role: 'editor',
  workspaceLevel: true,
  createsSite: true,
  bucket: { key: 'create_site', perMinute: 20 },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  idempotent: 'key',
  input: z.object({}),
  output: z.object({
    websiteId: z.string(),
    name: z.string(),
    published: z.boolean(),
    pages: z.number(),
    editorUrl: z.string(),
  }),
  activity: () => 'Created an empty draft site',
  run: (ctx) => createSite(ctx),
});
