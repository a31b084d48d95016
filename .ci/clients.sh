#!/usr/bin/env bash
# Real MCP clients against a running demo server: the official conformance suite (through a proxy
# that adds the bearer token, since the suite cannot send one) and MCP Inspector's CLI.
set -euo pipefail
cd "$(dirname "$0")/.."
work=$(mktemp -d)
free_port() { node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
PORT=${CI_MCP_PORT:-$(free_port)}
PROXY=${CI_PROXY_PORT:-$(free_port)}
export PORT HOST=127.0.0.1 DATA_DIR="$work/data" LOG_LEVEL=warn
node bin/sitegate.mjs serve --demo --demo-out "$work/demo.json" >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server $proxy 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 60); do [ -s "$work/demo.json" ] && curl -sf "http://127.0.0.1:$PORT/healthz" >/dev/null && break; sleep 1; done
TOKEN=$(node -e "console.log(require('$work/demo.json').tokens.all)")
# node itself (not npx) so that $! is the proxy and the trap really stops it.
node --import tsx scripts/auth-proxy.ts "$PROXY" "http://127.0.0.1:$PORT" "$TOKEN" >"$work/proxy.log" 2>&1 &
proxy=$!
for _ in $(seq 1 30); do grep -q "auth proxy on" "$work/proxy.log" 2>/dev/null && break; sleep 1; done
grep -q "auth proxy on" "$work/proxy.log" || { echo "the auth proxy did not start:"; cat "$work/proxy.log"; exit 1; }

# Scenarios that need no fixture tools of the suite's own (MCP-NOTES.md).
failed=0
for sc in server-initialize ping logging-set-level tools-list resources-list prompts-list dns-rebinding-protection; do
  if out=$(timeout 120 npx conformance server --url "http://127.0.0.1:$PROXY/api/mcp" --scenario "$sc" -o "$work/conf-$sc" 2>&1); then
    echo "conformance $sc: passed"
  else
    echo "conformance $sc: FAILED"; echo "$out" | tail -30; failed=1
  fi
done

echo "== MCP Inspector CLI"
listed=$(npx -y @modelcontextprotocol/inspector@2.12.0 --cli "http://127.0.0.1:$PORT/api/mcp" --header "Authorization: Bearer $TOKEN" --method tools/list)
count=$(node -e "const r=JSON.parse(require('fs').readFileSync(0,'utf8'));console.log(r.tools.length)" <<<"$listed")
echo "inspector tools/list: $count tools"
called=$(npx -y @modelcontextprotocol/inspector@2.12.0 --cli "http://127.0.0.1:$PORT/api/mcp" --header "Authorization: Bearer $TOKEN" --method tools/call --tool-name get_site_overview)
node -e "const r=JSON.parse(require('fs').readFileSync(0,'utf8'));if(!r.structuredContent?.ok)process.exit(1);console.log('inspector tools/call get_site_overview: ok, site', r.structuredContent.data.name)" <<<"$called"
[ "$count" -gt 0 ] || failed=1
exit $failed
