#!/bin/sh
# `npm test`: lint, typecheck, unit + integration tests, a fresh build, the fault suite (real server
# processes killed and restarted) and the e2e suite in Chromium.
set -e
echo "== lint" && npm run lint --silent
echo "== typecheck" && npx react-router typegen && npx tsc && npx tsc -p tsconfig.node.json
echo "== unit + integration" && npx vitest run --project unit --project integration
echo "== build" && npm run build --silent > /dev/null
echo "== faults" && npx vitest run --project faults
echo "== e2e" && npx playwright test
