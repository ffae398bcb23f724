#!/usr/bin/env bash
# Contract run: the built server against the test services, probed by Schemathesis with both
# OpenAPI documents. Fails on any 5xx, undocumented status, wrong content type or a response that
# does not match its documented schema. Expects scripts/services.sh up and `nest build` done.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=lib/serve.sh
source scripts/lib/serve.sh

SCHEMATHESIS_VERSION=4.32.5
VENV=.data/venv
if [[ ! -x $VENV/bin/st ]] || ! "$VENV/bin/st" --version 2>/dev/null | grep -q "$SCHEMATHESIS_VERSION"; then
  echo "[contract] installing schemathesis $SCHEMATHESIS_VERSION into $VENV"
  python3 -m venv "$VENV"
  "$VENV/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

export MONGODB_URI=${MONGODB_URI:-mongodb://127.0.0.1:27017/marketplace_contract}
export PORT=${CONTRACT_PORT:-$((20000 + RANDOM % 20000))}
# Schemathesis sends thousands of requests on one token: the per-credential limits (100/min by
# default) would answer most of them 429 and leave the operations untested.
export RATE_LIMIT_SHOP_PER_MINUTE=10000000 RATE_LIMIT_MERCHANT_PER_MINUTE=10000000 RATE_LIMIT_VENDOR_PER_MINUTE=10000000
export RATE_LIMIT_SIGN_IN_PER_ADDRESS=10000000 SIGN_IN_FAILURES_PER_ADDRESS=10000000 \
  SIGN_IN_FAILURES_PER_ADDRESS_PER_DAY=10000000 SIGN_IN_FAILURES_PER_ACCOUNT_PER_HOUR=10000000
# The provider webhooks' per-address limit (600/min by default) likewise.
export PROVIDER_WEBHOOK_PER_ADDRESS_PER_MINUTE=10000000
export HOST=127.0.0.1 LOG_LEVEL=${CONTRACT_LOG_LEVEL:-warn} LOG_FORMAT=json METRICS_PORT=${METRICS_PORT:-0}
serve_api contract


DOMAIN="contract-$RANDOM$RANDOM.myshopify.com"
SHOP_JSON=$(node dist/cli/main.js shop:create --domain "$DOMAIN")
API_KEY=$(echo "$SHOP_JSON" | json apiKey)
MK_JSON=$(node dist/cli/main.js merchant-key:create --domain "$DOMAIN" --name contract)
MERCHANT_KEY=$(echo "$MK_JSON" | json key)
SHOP_TOKEN=$(curl -fs -X POST "$BASE/v1/authenticate" -H 'content-type: application/json' \
  -d "{\"apiKey\":\"$API_KEY\",\"shopDomain\":\"$DOMAIN\"}" | json token)
MERCHANT_TOKEN=$(curl -fs -X POST "$BASE/authenticate" -H 'content-type: application/json' \
  -d "{\"apiKey\":\"$MERCHANT_KEY\"}" | json data.token)

CHECKS=not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance
run() { # name document token
  echo "[contract] $1: $2"
  "$VENV/bin/st" run "$2" --url "$BASE" -H "x-access-token: $3" --checks "$CHECKS" \
    --max-examples "${CONTRACT_MAX_EXAMPLES:-25}" --phases examples,coverage,fuzzing --seed 1 \
    --report junit --report-junit-path ".data/reports/contract-$1.xml" --warnings off --no-shrink
}
# The three runs go side by side (each is one Python process; the server answers them at once),
# each into its own log, printed in order once all have ended: on two cores the runs no longer
# wait for each other (~4.5 min one after another).
status=0
names=(v1-shop-token v2-merchant-token v2-shop-token)
docs=(openapi/v1.json openapi/v2.json openapi/v2.json)
tokens=("$SHOP_TOKEN" "$MERCHANT_TOKEN" "$SHOP_TOKEN")
pids=()
for i in 0 1 2; do
  run "${names[$i]}" "${docs[$i]}" "${tokens[$i]}" >".data/reports/contract-${names[$i]}.log" 2>&1 &
  pids+=($!)
done
for i in 0 1 2; do
  wait "${pids[$i]}" || status=1
  cat ".data/reports/contract-${names[$i]}.log"
done
LOGGED_ERRORS='"level":"(error|fatal)"'
if grep -Eq "$LOGGED_ERRORS" .data/reports/contract-server.log; then
  echo "[contract] the server logged errors during the run:"; grep -E "$LOGGED_ERRORS" .data/reports/contract-server.log | head -5
  status=1
fi
exit $status
