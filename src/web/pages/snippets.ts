// Client configuration snippets shown with a new token (Claude Desktop, VS Code, Cursor). They belong
// to the web layer; the CLI (`sitegate serve --demo`) only prints them.

/** The `mcpServers` entry that Claude Desktop and Cursor read, for a URL and a bearer token. */
export function clientConfig(mcpUrl: string, token: string) {
  return {
    mcpServers: {
      sitegate: { type: 'http', url: mcpUrl, headers: { Authorization: `Bearer ${token}` } },
    },
  };
}

export function clientSnippets(mcpUrl: string, token: string): Array<{ client: string; json: string }> {
  const auth = `Authorization: Bearer ${token}`;
  return [
    {
      client: 'Claude Desktop (claude_desktop_config.json)',
      json: JSON.stringify(
        {
          mcpServers: { sitegate: { command: 'npx', args: ['-y', 'mcp-remote', mcpUrl, '--header', auth] } },
        },
        null,
        2,
      ),
    },
    {
      client: 'VS Code (.vscode/mcp.json)',
      json: JSON.stringify(
        {
          servers: { sitegate: { type: 'http', url: mcpUrl, headers: { Authorization: `Bearer ${token}` } } },
        },
        null,
        2,
      ),
    },
    { client: 'Cursor (~/.cursor/mcp.json)', json: JSON.stringify(clientConfig(mcpUrl, token), null, 2) },
  ];
}
