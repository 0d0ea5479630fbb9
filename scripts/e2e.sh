#!/usr/bin/env bash
# Runs the real-VS-Code end-to-end tests (code-server + chromium). Builds nothing: compile the
# tests first (npm run compile-tests); package the extension first if a test needs the .vsix.
# Extra arguments are passed to mocha (e.g. --grep smoke).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

bash scripts/setup-code-server.sh
exec npx mocha --config .mocharc.json --timeout 180000 "out/test/e2e/**/*.test.js" "$@"
