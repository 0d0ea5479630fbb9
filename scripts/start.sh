#!/usr/bin/env bash
# npm start: builds and packages the extension, installs a local code-server (scripts/setup-code-server.sh),
# installs the extension into it (user data under .cache/start/) and serves VS Code on 127.0.0.1 with
# the Sandbox as the active connection. Prints the URL to open; Ctrl+C stops it.
# Environment: PORT (default 8080; a free port when 8080 is taken).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
STATE="$ROOT/.cache/start"
VSIX="$ROOT/out/multiposting-workbench.vsix"
BIN="$ROOT/.cache/code-server/node_modules/.bin/code-server"
log() { printf '[start] %s\n' "$*"; }

log "building"
node esbuild.mjs
log "packaging $VSIX"
mkdir -p out
npx --no-install vsce package --no-dependencies --allow-missing-repository --skip-license --no-rewrite-relative-links -o "$VSIX" >/dev/null
log "installing code-server (first run only; later runs take seconds)"
bash scripts/setup-code-server.sh

mkdir -p "$STATE/user-data/User" "$STATE/extensions" "$STATE/workspace" "$STATE/xdg/config" "$STATE/xdg/data"
SETTINGS="$STATE/user-data/User/settings.json"
if [[ ! -f "$SETTINGS" ]]; then
	cat > "$SETTINGS" <<'JSON'
{
	"workbench.startupEditor": "none",
	"security.workspace.trust.enabled": false,
	"telemetry.telemetryLevel": "off",
	"extensions.autoCheckUpdates": false,
	"extensions.autoUpdate": false,
	"update.mode": "none",
	"chat.disableAIFeatures": true,
	"workbench.secondarySideBar.defaultVisibility": "hidden",
	"git.openRepositoryInParentFolders": "never",
	"multiposting.activeConnection": "sandbox"
}
JSON
fi
if [[ ! -f "$STATE/workspace/README.md" ]]; then
	printf '# Multiposting workspace\n\nOpen the Multiposting view in the activity bar and press **Start Sandbox**.\n' > "$STATE/workspace/README.md"
fi

export XDG_CONFIG_HOME="$STATE/xdg/config" XDG_DATA_HOME="$STATE/xdg/data"
DIRS=(--user-data-dir "$STATE/user-data" --extensions-dir "$STATE/extensions")
log "installing the extension into code-server"
"$BIN" "${DIRS[@]}" --install-extension "$VSIX" --force >/dev/null

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
PORT="${PORT:-8080}"
if ! port_free "$PORT"; then
	PORT="$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close();})")"
	log "port 8080 is taken; using $PORT"
fi

URL="http://127.0.0.1:$PORT/?folder=$STATE/workspace"
log "VS Code with the Multiposting extension: open $URL"
log "press Ctrl+C to stop"
exec "$BIN" "${DIRS[@]}" --auth none --bind-addr "127.0.0.1:$PORT" \
	--disable-telemetry --disable-update-check --disable-workspace-trust --ignore-last-opened "$STATE/workspace"
