'use strict';
// A numbering worker of the `numbering` fault scenario (test/faults/numbering.js): the built code
// (dist/) wired as the documents feature wires it (the DOCUMENT_NUMBERING port of
// DocumentNumberingModule, on the core modules every process runs), numbering the given documents of one shop
// in a random order, `NUMBERING_CONCURRENCY` at a time. Prints `ready`, one `numbered <id> <number>`
// line per document, then `done`. Killed with kill -9 at any moment (or by FAULT_CRASH_POINT), it is
// simply started again: a numbered document answers its number, a dead holder is finished.
//   node test/faults/numbering-worker.js <shopId> <ids.json>
require('reflect-metadata');
const fs = require('node:fs');
const path = require('node:path');
const { Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');

const DIST = path.resolve(__dirname, '..', '..', 'dist');
const { CORE_MODULES } = require(path.join(DIST, 'app.module'));
const { AuditModule } = require(path.join(DIST, 'audit', 'audit.module'));
const { DocumentNumberingModule } = require(
  path.join(DIST, 'documents', 'numbering', 'document-numbering.module'),
);
const { DOCUMENT_NUMBERING } = require(path.join(DIST, 'documents', 'document-numbering.port'));
const { shopScope } = require(path.join(DIST, 'common', 'tenancy'));

async function main() {
  const [shopId, idsFile] = process.argv.slice(2);
  const ids = JSON.parse(fs.readFileSync(idsFile, 'utf8'));
  for (let i = ids.length - 1; i > 0; i--) {
    const j = Math.floor(Math.random() * (i + 1));
    [ids[i], ids[j]] = [ids[j], ids[i]];
  }
  class NumberingWorker {}
  // the service's infrastructure, the audit trail the shop legal settings need, and the numbering
  Module({ imports: [...CORE_MODULES, AuditModule, DocumentNumberingModule] })(NumberingWorker);
  const app = await NestFactory.createApplicationContext(NumberingWorker, { logger: ['error', 'warn'] });
  const numbering = app.get(DOCUMENT_NUMBERING, { strict: false });
  const scope = shopScope(shopId);
  const issuedAt = new Date('2026-06-15T10:00:00.000Z');
  console.log('ready');
  let next = 0;
  const concurrency = Number(process.env.NUMBERING_CONCURRENCY ?? 4);
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < ids.length) {
        const id = ids[next++];
        const number = await numbering.assign(scope, id, 'commission_invoice', issuedAt);
        console.log(`numbered ${id} ${number}`);
      }
    }),
  );
  console.log('done');
  await app.close();
  process.exit(0);
}

main().catch((err) => {
  console.error(err?.stack ?? err);
  process.exit(1);
});
