#!/usr/bin/env bash
# The whole suite (README command 2, and what .ci/run calls): services, build, lint, the docs' links, the OpenAPI lint
# gates (Spectral + OWASP, Redocly), unit tests, the generated client's types, e2e tests over HTTP
# against the real MongoDB-compatible server and Redis (the generated client's flow among them), the
# fault tests (their own store and Redis, kill -9; test/faults/run.js), the OpenAPI freshness check,
# the Schemathesis contract run and Swagger UI in Chromium. Each run uses its own database and queue prefix;
# the fault tests and the contract run go in the background beside the e2e run.
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

# Each step prints its start time (UTC), so a slow step shows in the log.
step() { echo "== $(date -u +%T) $*"; }
# finish_background WHAT VAR LOG: waits for the background run whose pid is in $VAR (cleared, so the
# cleanup leaves it alone), prints its log, and stops the suite with its exit code if it failed.
finish_background() {
  local what=$1 var=$2 log=$3 status=0
  wait "${!var}" || status=$?
  printf -v "$var" '%s' ''
  cat "$log"
  if [[ $status != 0 ]]; then
    echo "$what failed (exit $status)"
    exit "$status"
  fi
}

RUN_ID=$(date +%s)_$$
export MONGODB_BASE=${MONGODB_URI:-mongodb://127.0.0.1:27017/marketplace}
export MONGODB_URI="${MONGODB_BASE%/*}/marketplace_test_${RUN_ID}"
export QUEUE_PREFIX="mp-test-${RUN_ID}"
# Every database command of the e2e and contract runs is captured (shapes, never values) for the
# index-coverage gate below; the e2e budgets read the same observer in-process.
export DB_COMMAND_CAPTURE_DIR=".data/reports/db-commands-${RUN_ID}"
mkdir -p .data/reports

FAULTS=""
CONTRACT=""
# The contract run's own database and queue prefix: its server's jobs and sweeps never touch the
# e2e run's (they run at the same time, below).
CONTRACT_URI="${MONGODB_BASE%/*}/marketplace_test_contract_${RUN_ID}"
cleanup() {
  kill "$SERVICES" 2>/dev/null || true
  if [[ -n $FAULTS ]] && kill -TERM "$FAULTS" 2>/dev/null; then wait "$FAULTS" 2>/dev/null || true; fi
  if [[ -n $CONTRACT ]] && kill -TERM "$CONTRACT" 2>/dev/null; then wait "$CONTRACT" 2>/dev/null || true; fi
  node scripts/drop-database.js "$MONGODB_URI" --and-files >/dev/null 2>&1 || true
  node scripts/drop-database.js "$CONTRACT_URI" >/dev/null 2>&1 || true
  rm -rf "$DB_COMMAND_CAPTURE_DIR"
}
trap cleanup EXIT

step "build"
npx nest build
step "lint"
npx eslint "{src,test}/**/*.ts"
step "dependency rules (one way down: .dependency-cruiser.cjs)"
npm run --silent lint:deps
step "docs links"
# Relative file links and #anchors between our markdown files (remark-validate-links: offline,
# external http(s) links are not fetched).
npm run --silent docs:links
step "OpenAPI lint gates (Spectral: spectral:oas + OWASP + .spectral.yaml; Redocly recommended)"
bash scripts/lint-openapi.sh
step "PDF tools (poppler-utils: the document tests read PDFs with pdftotext)"
bash scripts/pdftools.sh
step "unit tests"
# two workers (jest's default is cores - 1: one, on the 2-core CI machine): ~55 s instead of ~77 s
npx jest --selectProjects unit --maxWorkers=2 --json --outputFile=.data/reports/unit.json
step "services (MongoDB-compatible store and Redis)"
services_ready
# The fault tests start their own store, Redis and apps (the built code) on their own ports, so they
# run in the background beside the steps below (client, e2e, contract run, Swagger UI): ~10 min that
# no longer add up. Their log is printed at the end.
step "fault tests start in the background (own store and Redis on their own ports, kill -9; log at the end)"
FAULTS_REPORT=.data/reports/faults.json node test/faults/run.js >.data/reports/faults.log 2>&1 &
FAULTS=$!
# The contract run (~4.5 min alone: three Schemathesis runs) starts now too, at low priority (nice
# 10): it takes the CPU the e2e run and the fault tests leave idle, and whatever is left after them.
# Its log is printed after the e2e run.
step "contract run (Schemathesis) starts in the background at low priority (own database and queues; log after e2e)"
MONGODB_URI="$CONTRACT_URI" QUEUE_PREFIX="mp-contract-${RUN_ID}" nice -n 10 bash scripts/contract.sh \
  >.data/reports/contract.log 2>&1 &
CONTRACT=$!
step "generated client (openapi-typescript types, tsc --strict)"
bash scripts/client.sh
step "e2e tests (database ${MONGODB_URI##*/})"
npx jest --selectProjects e2e --maxWorkers=2 --json --outputFile=.data/reports/e2e.json
step "OpenAPI documents are current"
node dist/cli/openapi.js check
step "contract run (Schemathesis; started above: waiting for it, then its log)"
finish_background "the contract run" CONTRACT .data/reports/contract.log
step "Swagger UI in Chromium (playwright-core), and every GET with its Swagger UI defaults"
bash scripts/browser.sh
step "every query shape has a serving index (ESR)"
node scripts/check-index-coverage.js "$DB_COMMAND_CAPTURE_DIR" --report .data/reports/index-coverage.json
step "fault tests (started above; their log)"
finish_background "the fault tests" FAULTS .data/reports/faults.log

node -e '
const r = ["unit", "e2e"].map((n) => require("./.data/reports/" + n + ".json"));
const passed = r.reduce((s, x) => s + x.numPassedTests, 0);
const failed = r.reduce((s, x) => s + x.numFailedTests, 0);
const faults = require("./.data/reports/faults.json");
console.log(`fault scenarios: ${faults.filter((f) => f.ok).length} passed, ${faults.filter((f) => !f.ok).length} failed`);
console.log(`tests: ${passed} passed, ${failed} failed`);
'
