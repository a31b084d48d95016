// Every tool the service offers. Each area's file exports its tool declarations; nothing else is listed.
import type { ToolDef } from '../define-tool.js';
import * as content from './content.js';
import * as site from './site.js';

const modules: Array<Record<string, unknown>> = [site, content];

export const ALL_TOOLS: ToolDef[] = modules.flatMap((m) =>
  Object.values(m).filter((v): v is ToolDef => isToolDef(v)),
);

function isToolDef(v: unknown): v is ToolDef {
  return typeof v === 'object' && v !== null && 'name' in v && 'run' in v && 'scope' in v;
}
