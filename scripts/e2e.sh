#!/usr/bin/env bash
# Runs the real-VS-Code end-to-end tests (code-server + chromium). Builds nothing: compile the
# tests first (npm run compile-tests); package the extension first if a test needs the .vsix.
# Extra arguments are passed to mocha (e.g. --grep smoke).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup-code-server.sh
# session.js holds the shared code-server window and the root hooks (reset before each test,
# screenshot and log on failure, teardown at the end).
exec npx mocha --config .mocharc.json --timeout 180000 --require out/test/e2e/session.js \
	"out/test/e2e/**/*.test.js" "$@"
