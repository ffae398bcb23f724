#!/usr/bin/env bash
# `npm run bench`: services up, build, then the benchmark scenarios against a database of their own.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bash scripts/services.sh up
export MONGODB_URI="${MONGODB_URI:-mongodb://127.0.0.1:27017/marketplace}_bench"
# BENCH_DB / BENCH_PORT / QUEUE_PREFIX let benches run side by side without sharing data or queues.
export MONGODB_URI="${MONGODB_URI%/*}/marketplace_bench${BENCH_DB:+_${BENCH_DB}}"
export QUEUE_PREFIX="${QUEUE_PREFIX:-mp-bench${BENCH_DB:+-${BENCH_DB}}}"
# every run starts from an empty database (the figures depend on its size): a failed drop stops the run.
# BENCH_REUSE=1 keeps it (vendor-scale then reuses the shops and orders it seeded before, if any).
[[ -n ${BENCH_REUSE:-} ]] || node scripts/drop-database.js "$MONGODB_URI"
npx nest build
node scripts/bench/index.js "$@"
