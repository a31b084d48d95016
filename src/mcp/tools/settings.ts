// Settings tools (R-TOOL-9): the business name.
import { z } from 'zod';
import { BUSINESS_NAME_MAX, updateBusinessName } from '../../domain/settings/business-name.js';
import { defineTool } from '../define-tool.js';

export const update_business_name = defineTool({
  name: 'update_business_name',
  title: 'Update the business name',
  description: `Renames the business (the workspace's name, used by every site and by new sites). Trimmed; 1-${BUSINESS_NAME_MAX} characters.`,
  scope: 'settings:write',
  area: 'settings',
  role: 'editor',
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  input: z.object({ name: z.string().max(400).describe('The new business name.') }),
  output: z.object({ name: z.string() }),
  activity: () => 'Updated the business name',
  run: (ctx, input) => updateBusinessName(ctx, input.name),
});
