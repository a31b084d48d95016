// Every tool the service offers. Each area's file exports its tool declarations; nothing else is listed.
import type { ToolDef } from '../define-tool.js';
import * as access from './access.js';
import * as documents from './documents.js';
import * as plans from './plans.js';
import * as commerce from './commerce.js';
import * as crm from './crm.js';
import * as domains from './domains.js';
import * as images from './images.js';
import * as settings from './settings.js';
import * as importTools from './import.js';
import * as content from './content.js';
import * as site from './site.js';
import * as workspace from './workspace.js';

const modules: Array<Record<string, unknown>> = [
  site,
  content,
  plans,
  access,
  documents,
  crm,
  commerce,
  settings,
  domains,
  images,
  workspace,
  importTools,
];

export const ALL_TOOLS: ToolDef[] = modules.flatMap((m) =>
  Object.values(m).filter((v): v is ToolDef => isToolDef(v)),
);

function isToolDef(v: unknown): v is ToolDef {
  return typeof v === 'object' && v !== null && 'name' in v && 'run' in v && 'scope' in v;
}
