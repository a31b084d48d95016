// The MCP path Sitegate replaced, kept measurable: the previous SDK generation
// (`@modelcontextprotocol/sdk` 1.32, a development dependency used only here and by the v1 client
// tests) behind the same edge, with the same handlers and the same `callTool` seam — its low-level
// Server and web-standard transport per request, JSON answers, 2025-11-25 only. bench/mcp.ts serves
// it beside the v2 endpoint and compares the two in one run.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv-provider.js';
import { listingFacts } from '../src/gate/listing.js';
import { type CallDeps, callTool } from '../src/mcp/call.js';
import type { McpEndpoint } from '../src/mcp/endpoint.js';
import { SERVER_INSTRUCTIONS } from '../src/mcp/instructions.js';
import { principalOf } from '../src/mcp/principal.js';
import { readResource } from '../src/mcp/resources.js';

const validator = new AjvJsonSchemaValidator();

export function v1Endpoint(deps: CallDeps): McpEndpoint {
  return {
    async fetch(request, { authInfo }) {
      const principal = principalOf(authInfo);
      if (principal.kind !== 'caller') throw new Error('the v1 baseline serves bound callers only');
      const { caller } = principal;
      const server = new Server(
        { name: 'sitegate-v1', version: '0.1.0' },
        {
          capabilities: { tools: {}, resources: {} },
          instructions: SERVER_INSTRUCTIONS,
          jsonSchemaValidator: validator,
        },
      );
      server.setRequestHandler(ListToolsRequestSchema, async () => ({
        tools: deps.registry.listFor(
          caller,
          await listingFacts(deps.services.db, caller, deps.caches.listing),
        ),
      }));
      server.setRequestHandler(CallToolRequestSchema, async (req) => {
        const tool = deps.registry.get(req.params.name);
        if (!tool) throw new Error(`Unknown tool: ${req.params.name}`);
        return callTool(deps, caller, tool, req.params.arguments);
      });
      server.setRequestHandler(ReadResourceRequestSchema, async (req) =>
        readResource(deps, caller, req.params.uri),
      );
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      await server.connect(transport);
      return transport.handleRequest(request);
    },
  };
}
