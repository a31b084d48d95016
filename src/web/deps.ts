// What the HTTP layer is handed: the shared services plus the MCP call dependencies.
import type { OAuthEdge } from '../auth/oauth/edge.js';
import type { CallDeps } from '../mcp/call.js';
import type { McpEndpoint } from '../mcp/endpoint.js';
import type { Metrics } from '../ops/metrics.js';
import type { Readiness } from '../ops/readiness.js';

/** Operations (R-OPS-4): metrics, readiness, and whether the process is shutting down. */
export type OpsDeps = { metrics: Metrics; readiness: () => Promise<Readiness>; draining: () => boolean };

export type AppDeps = CallDeps & {
  oauth?: OAuthEdge;
  ops?: OpsDeps;
  /** Another MCP endpoint behind the same edge (the benchmark's previous-SDK baseline); default: ours. */
  mcpEndpoint?: McpEndpoint;
};
