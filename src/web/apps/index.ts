// The MCP Apps as this service serves them (R-APP-1): the protocol side (src/mcp/apps/) given the
// documents and the views the web floor draws.
import { type McpApps, createMcpApps } from '../../mcp/apps/apps.js';
import type { AppDeps } from '../deps.js';
import { appDocuments } from './documents.js';
import { APP_VIEWS } from './views.js';

export function mcpApps(deps: AppDeps): McpApps {
  return createMcpApps({
    origin: new URL(deps.services.config.baseUrl).origin,
    documents: appDocuments,
    views: APP_VIEWS,
  });
}
