// The baseline of the MCP benchmark: a bare SDK server built the way the SDK's stateless example
// does it — a new McpServer and transport per request, one echo tool — on node:http.
// Usage: tsx bench/baseline-server.ts <port>
import { createServer } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

const port = Number(process.argv[2] ?? 0);

createServer(async (req, res) => {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
  const server = new McpServer({ name: 'baseline', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echo', inputSchema: { text: z.string().optional() } },
    async (a) => ({
      content: [{ type: 'text', text: a.text ?? '' }],
    }),
  );
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
  res.on('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}).listen(port, '127.0.0.1', () => console.log('ready'));
