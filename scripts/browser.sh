#!/usr/bin/env bash
# Swagger UI in a real browser (a step of scripts/test.sh): Debian's Chromium — installed with
# apt-get when missing, never a browser download — driven by playwright-core through both Swagger
# UIs against the built server with seeded demo data (test/browser/swagger-ui.js). Expects
# scripts/services.sh up and `nest build` done.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
# shellcheck source=lib/serve.sh
source scripts/lib/serve.sh
mkdir -p .data/reports

if ! command -v chromium >/dev/null 2>&1; then
  echo "[browser] installing Debian's chromium"
  if [[ $(id -u) -eq 0 ]]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq >/dev/null
  $SUDO apt-get install -y -qq chromium >/dev/null
fi
export CHROMIUM=$(command -v chromium)

export MONGODB_URI=${MONGODB_URI:-mongodb://127.0.0.1:27017/marketplace_browser}
export PORT=${BROWSER_PORT:-$((20000 + RANDOM % 20000))}
export HOST=127.0.0.1 LOG_LEVEL=warn LOG_FORMAT=json METRICS_PORT=0
# The contract run just signed in thousands of times from this address within the same minute (the
# counters live in Redis); the credentials' own limits stay as shipped.
export RATE_LIMIT_SIGN_IN_PER_ADDRESS=10000000 SIGN_IN_FAILURES_PER_ADDRESS=10000000 \
  SIGN_IN_FAILURES_PER_ADDRESS_PER_DAY=10000000 SIGN_IN_FAILURES_PER_ACCOUNT_PER_HOUR=10000000
serve_api browser

post() { curl -fs -X POST "$BASE$1" -H 'content-type: application/json' ${3:+-H "x-access-token: $3"} -d "$2"; }

DEMO=$(node dist/cli/main.js seed:demo --orders 12 2>/dev/null)
DOMAIN=$(echo "$DEMO" | json shopDomain)
export SHOP_TOKEN=$(post /v1/authenticate "{\"apiKey\":\"$(echo "$DEMO" | json apiKey)\",\"shopDomain\":\"$DOMAIN\"}" | json token)
export MERCHANT_TOKEN=$(post /authenticate "{\"apiKey\":\"$(echo "$DEMO" | json merchantKey)\"}" | json data.token)
curl -fs -X PUT "$BASE/v1/shop/profile" -H 'content-type: application/json' -H "x-access-token: $SHOP_TOKEN" \
  -d '{"fields":["companyName","taxId"]}' >/dev/null
VENDOR_ID=$(curl -fs "$BASE/v1/commissions/vendor" -H "x-access-token: $SHOP_TOKEN" | json vendors.0.vendorId)
post /v1/users "{\"vendorId\":\"$VENDOR_ID\",\"email\":\"portal@demo.example\",\"password\":\"Browser-pass-1\"}" "$SHOP_TOKEN" >/dev/null
export VENDOR_TOKEN=$(post /v2/vendor/authenticate "{\"shopDomain\":\"$DOMAIN\",\"email\":\"portal@demo.example\",\"password\":\"Browser-pass-1\"}" | json data.token)

node test/browser/swagger-ui.js
