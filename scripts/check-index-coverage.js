#!/usr/bin/env node
// The index-coverage gate of the test suite (issue: "every query shape is index-served on MongoDB").
// Reads the command shapes the app captured during the e2e and contract runs (DB_COMMAND_CAPTURE_DIR)
// and the indexes the schemas declare, and fails when any find / count / aggregate / update / delete /
// findAndModify shape has no serving index under the ESR rule, naming the query and the closest index.
// Also lists declared indexes that no captured query uses. And fails when a find that returned two or
// more rows for a request or a job has no total order (no unique index fully matched or sorted on)
// while several indexes could serve it: the development store then tries every candidate plan over
// the whole collection to return mongod's order (src/database/store-ranges.ts).
//   node scripts/check-index-coverage.js <capture dir> [--report file.json]
const fs = require('node:fs');
const path = require('node:path');
const { coverage } = require('../dist/database/index-coverage');

const dir = process.argv[2];
const reportAt = process.argv.includes('--report') ? process.argv[process.argv.indexOf('--report') + 1] : null;
if (!dir || !fs.existsSync(dir)) {
  console.error(`usage: check-index-coverage.js <capture dir>  (no such directory: ${dir})`);
  process.exit(2);
}

const commands = [];
const routes = new Map();
let declared = null;
for (const name of fs.readdirSync(dir)) {
  const file = path.join(dir, name);
  if (name.startsWith('indexes-')) {
    declared ??= JSON.parse(fs.readFileSync(file, 'utf8'));
  } else if (name.startsWith('commands-')) {
    for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
      if (!line) continue;
      const rec = JSON.parse(line);
      if (rec.kind === 'request') routes.set(rec.request, `${rec.method} ${rec.route}`);
      else if (rec.kind === 'command' && rec.statements.length > 0) commands.push(rec);
    }
  }
}
if (!declared) {
  console.error(`no declared indexes in ${dir}: was the app started with DB_COMMAND_CAPTURE_DIR?`);
  process.exit(2);
}
for (const c of commands) {
  c.example = c.op ? (routes.get(c.op) ?? (c.op.startsWith('job:') ? c.op.split(':').slice(0, 2).join(':') : c.op)) : 'startup/cli';
}

const report = coverage(commands, declared);
const queries = commands.reduce((n, c) => n + c.statements.length, 0);
console.log(`[index-coverage] ${commands.length} commands, ${queries} statements, ${report.rows.length} distinct shapes, ${declared.length} declared indexes`);
for (const r of report.rows) {
  console.log(`  ${r.served ? 'ok  ' : 'MISS'} ${r.collection}.${r.command} ${r.shape}  x${r.count}  → ${r.served ? r.index : `closest ${r.index}: ${r.reason}`}  (${r.example})`);
}
if (report.unusedIndexes.length > 0) {
  console.log('[index-coverage] declared indexes no captured query uses:');
  for (const ix of report.unusedIndexes) {
    console.log(`  ${ix.collection}.${ix.name}${ix.unique ? ' (unique: enforces a constraint)' : ''}`);
  }
}
if (reportAt) fs.writeFileSync(reportAt, JSON.stringify(report, null, 2));
let failed = false;
if (report.unordered.length > 0) {
  console.error(`[index-coverage] ${report.unordered.length} multi-row read shape(s) with no total order:`);
  for (const r of report.unordered) {
    console.error(`  ${r.collection}.${r.command} ${r.shape}  x${r.count} (e.g. ${r.example}): ${r.reason}`);
  }
  failed = true;
}
if (report.unserved.length > 0) {
  console.error(`[index-coverage] ${report.unserved.length} query shape(s) with no serving index:`);
  for (const r of report.unserved) {
    console.error(`  ${r.collection}.${r.command} ${r.shape} (e.g. ${r.example}); closest index ${r.index}: ${r.reason}`);
  }
  failed = true;
}
if (failed) process.exit(1);
console.log('[index-coverage] every captured query shape has a serving index, and every multi-row read a total order');
