#!/usr/bin/env bash
# The whole suite (README command 2, and what .ci/run calls): services, build, lint, the docs' links, the OpenAPI lint
# gates (Spectral + OWASP, Redocly), unit tests, the generated client's types, e2e tests over HTTP
# against the real MongoDB-compatible server and Redis (the generated client's flow among them), the
# fault tests (their own store and Redis, kill -9; test/faults/run.js), the OpenAPI freshness check,
# the Schemathesis contract run and Swagger UI in Chromium. Each run uses its own database and queue prefix.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mkdir -p .data/reports

# The development store may need building first (the default, SecantusDB, is compiled once from
# crates.io: ~7-9 min on a fresh machine): services come up in the background while the steps
# that need no database run.
# `install` first, always: the fault tests start their own store from the checkout's binaries, so
# they must exist even when a store already listens at MONGODB_URI and `up` has nothing to start.
{ bash scripts/services.sh install && bash scripts/services.sh up; } >.data/reports/services.log 2>&1 &
SERVICES=$!
services_ready() {
  if ! wait "$SERVICES"; then
    cat .data/reports/services.log
    echo "scripts/services.sh up failed"
    exit 1
  fi
  cat .data/reports/services.log
}

RUN_ID=$(date +%s)_$$
export MONGODB_BASE=${MONGODB_URI:-mongodb://127.0.0.1:27017/marketplace}
export MONGODB_URI="${MONGODB_BASE%/*}/marketplace_test_${RUN_ID}"
export QUEUE_PREFIX="mp-test-${RUN_ID}"
# Every database command of the e2e and contract runs is captured (shapes, never values) for the
# index-coverage gate below; the e2e budgets read the same observer in-process.
export DB_COMMAND_CAPTURE_DIR=".data/reports/db-commands-${RUN_ID}"
mkdir -p .data/reports

cleanup() {
  kill "$SERVICES" 2>/dev/null || true
  node scripts/drop-database.js "$MONGODB_URI" --and-files >/dev/null 2>&1 || true
  rm -rf "$DB_COMMAND_CAPTURE_DIR"
}
trap cleanup EXIT

echo "== build"
npx nest build
echo "== lint"
npx eslint "{src,test}/**/*.ts"
echo "== dependency rules (one way down: .dependency-cruiser.cjs)"
npm run --silent lint:deps
echo "== docs links"
# Relative file links and #anchors between our markdown files (remark-validate-links: offline,
# external http(s) links are not fetched).
npm run --silent docs:links
echo "== OpenAPI lint gates (Spectral: spectral:oas + OWASP + .spectral.yaml; Redocly recommended)"
bash scripts/lint-openapi.sh
echo "== PDF tools (poppler-utils: the document tests read PDFs with pdftotext)"
bash scripts/pdftools.sh
echo "== unit tests"
npx jest --selectProjects unit --json --outputFile=.data/reports/unit.json
echo "== services (MongoDB-compatible store and Redis)"
services_ready
echo "== generated client (openapi-typescript types, tsc --strict)"
bash scripts/client.sh
echo "== e2e tests (database ${MONGODB_URI##*/})"
npx jest --selectProjects e2e --maxWorkers=2 --json --outputFile=.data/reports/e2e.json
echo "== fault tests (own store and Redis on their own ports, kill -9; ~3 min)"
FAULTS_REPORT=.data/reports/faults.json node test/faults/run.js
echo "== OpenAPI documents are current"
node dist/cli/openapi.js check
echo "== contract run (Schemathesis)"
bash scripts/contract.sh
echo "== Swagger UI in Chromium (playwright-core), and every GET with its Swagger UI defaults"
bash scripts/browser.sh
echo "== every query shape has a serving index (ESR)"
node scripts/check-index-coverage.js "$DB_COMMAND_CAPTURE_DIR" --report .data/reports/index-coverage.json

node -e '
const r = ["unit", "e2e"].map((n) => require("./.data/reports/" + n + ".json"));
const passed = r.reduce((s, x) => s + x.numPassedTests, 0);
const failed = r.reduce((s, x) => s + x.numFailedTests, 0);
const faults = require("./.data/reports/faults.json");
console.log(`fault scenarios: ${faults.filter((f) => f.ok).length} passed, ${faults.filter((f) => !f.ok).length} failed`);
console.log(`tests: ${passed} passed, ${failed} failed`);
'
