// What the HTTP layer is handed: the shared services plus the MCP call dependencies.
import type { OAuthEdge } from '../auth/oauth/edge.js';
import type { CallDeps } from '../mcp/call.js';

export type AppDeps = CallDeps & { oauth?: OAuthEdge };
