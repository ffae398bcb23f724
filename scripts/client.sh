#!/usr/bin/env bash
# The generated client (a step of scripts/test.sh, before the e2e tests that run its flow):
# openapi-typescript turns the committed documents into test/client/generated/{v1,v2}.ts (never
# edited by hand, git-ignored), and the flow written against them (test/client/*.ts) must compile
# under tsc --strict; eslint forbids any, casts and non-null assertions there.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mkdir -p test/client/generated
for doc in v1 v2; do
  npx --no-install openapi-typescript "openapi/$doc.json" --output "test/client/generated/$doc.ts" --silent
done
npx --no-install tsc -p test/client/tsconfig.json
echo "[client] test/client/generated/v1.ts and v2.ts generated; the flow compiles under tsc --strict"
