#!/usr/bin/env bash
# The OpenAPI lint gates (a step of scripts/test.sh; offline, a few seconds): Spectral with
# spectral:oas, the OWASP API Security ruleset and this project's rules (.spectral.yaml), and Redocly's
# recommended ruleset (redocly.yaml), each at 0 errors on both committed documents. Prints the
# error/warning counts per tool and document; the reports land in .data/reports/.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
mkdir -p .data/reports
export REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true NO_UPDATE_NOTIFIER=1

status=0
for doc in v1 v2; do
  spectral=.data/reports/spectral-$doc.json
  redocly=.data/reports/redocly-$doc.json
  # Both tools exit non-zero on errors; the counts below decide, so a crash (no report) fails too.
  npx --no-install spectral lint "openapi/$doc.json" --ruleset .spectral.yaml --format json --output "$spectral" \
    --quiet --fail-severity error >/dev/null 2>.data/reports/spectral-$doc.log || true
  npx --no-install redocly lint "openapi/$doc.json" --config redocly.yaml --format json \
    >"$redocly" 2>.data/reports/redocly-$doc.log || true
  node - "$doc" "$spectral" "$redocly" <<'JS' || status=1
const [doc, spectralFile, redoclyFile] = process.argv.slice(2);
const fs = require('node:fs');
const read = (f, tool) => {
  try {
    return JSON.parse(fs.readFileSync(f, 'utf8'));
  } catch {
    console.error(`[lint] ${tool} produced no report for openapi/${doc}.json (see ${f.replace('.json', '.log')})`);
    process.exit(1);
  }
};
const spectral = read(spectralFile, 'spectral');
const redocly = read(redoclyFile, 'redocly');
const se = spectral.filter((r) => r.severity === 0);
const sw = spectral.filter((r) => r.severity === 1).length;
const re = redocly.problems.filter((p) => p.severity === 'error');
const rw = redocly.problems.filter((p) => p.severity === 'warn').length;
console.log(`[lint] openapi/${doc}.json  spectral: ${se.length} errors, ${sw} warnings  redocly: ${re.length} errors, ${rw} warnings`);
for (const r of se) console.log(`  spectral ${r.code}: ${r.message} at ${r.path.join('/')}`);
for (const p of re) console.log(`  redocly ${p.ruleId}: ${p.message} at ${p.location?.[0]?.pointer ?? ''}`);
process.exit(se.length + re.length ? 1 : 0);
JS
done
exit $status
