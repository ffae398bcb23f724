'use strict';
// The figures of the `documents` fault scenario (test/faults/documents.js), read straight from the
// database: for every batch of the shop, the documents it must have (DESIGN §14: a payout statement
// per completed batch; a commission invoice when the commission it settled is > 0, a credit note
// when < 0, none at 0; nothing for a batch that did not complete), the commission-invoice series
// (gap-free, no duplicate, register and counter agreeing) and each issued document's audit entry
// and `document.issued` event (exactly one each). The commission is summed here, in integer cents,
// from the rows the batch settled — independently of the issuer's code.
const mongoose = require('mongoose');

const cents = (x) => BigInt(Math.round(Number(x ?? 0) * 100));
const textCents = (s) => {
  const m = /^(-?)(\d+)\.(\d{2})$/.exec(String(s));
  if (!m) return null;
  const v = BigInt(m[2]) * 100n + BigInt(m[3]);
  return m[1] ? -v : v;
};

/** Every figure of the shop's documents; `ok` when nothing is lost, duplicated or out of place. */
async function documentFigures(conn, shopId) {
  const sid = new mongoose.Types.ObjectId(shopId);
  const db = conn.db;
  const batches = await db.collection('payout_batches').find({ shopId: sid }).toArray();
  const docs = await db.collection('documents').find({ shopId: sid }).toArray();
  const rows = await db
    .collection('line_items')
    .find(
      { shopId: sid, batchId: { $ne: null } },
      { projection: { batchId: 1, commission: 1, taxOnCommissions: 1 } },
    )
    .toArray();
  const commissionOf = new Map();
  for (const r of rows) {
    const k = String(r.batchId);
    commissionOf.set(k, (commissionOf.get(k) ?? 0n) + cents(r.commission) + cents(r.taxOnCommissions));
  }
  const docsOf = new Map();
  for (const d of docs) {
    const k = String(d.batchId);
    docsOf.set(k, [...(docsOf.get(k) ?? []), d]);
  }
  let lost = 0;
  let duplicated = 0;
  let unexpected = 0;
  let notIssued = 0;
  let statementMismatch = 0;
  let dueLeft = 0;
  const completed = batches.filter((b) => b.status === 'completed');
  const byStatus = batches.reduce((m, b) => ({ ...m, [b.status]: (m[b.status] ?? 0) + 1 }), {});
  for (const b of batches) {
    const mine = docsOf.get(String(b._id)) ?? [];
    docsOf.delete(String(b._id));
    if (b.documentsDue === true) dueLeft++;
    if (b.status !== 'completed') {
      unexpected += mine.length;
      continue;
    }
    const commission = commissionOf.get(String(b._id)) ?? 0n;
    const want = ['payout_statement'];
    if (commission > 0n) want.push('commission_invoice');
    if (commission < 0n) want.push('credit_note');
    for (const type of want) {
      const n = mine.filter((d) => d.type === type).length;
      if (n === 0) lost++;
      duplicated += Math.max(0, n - 1);
    }
    unexpected += mine.filter((d) => !want.includes(d.type)).length;
    notIssued += mine.filter((d) => d.state !== 'issued').length;
    const statement = mine.find((d) => d.type === 'payout_statement');
    if (statement && textCents(statement.snapshot?.totals?.total) !== cents(b.total)) statementMismatch++;
  }
  for (const orphans of docsOf.values()) unexpected += orphans.length; // no batch of this shop

  // the commission-invoice series, per year of issue
  const invoices = docs.filter((d) => d.type === 'commission_invoice');
  const years = [...new Set(invoices.map((d) => d.year))];
  let gaps = 0;
  let seqDuplicated = 0;
  let badText = 0;
  let registerMismatch = 0;
  const counters = [];
  for (const year of years) {
    const ofYear = invoices.filter((d) => d.year === year);
    const seen = new Map();
    for (const d of ofYear) if (typeof d.seq === 'number') seen.set(d.seq, (seen.get(d.seq) ?? 0) + 1);
    seqDuplicated += [...seen.values()].reduce((n, k) => n + k - 1, 0);
    const max = seen.size ? Math.max(...seen.keys()) : 0;
    gaps += Array.from({ length: max }, (_, i) => i + 1).filter((s) => !seen.has(s)).length;
    badText += ofYear.filter((d) => d.number !== `INV-${year}-${String(d.seq).padStart(6, '0')}`).length;
    const register = await db
      .collection('document_numbers')
      .find({ shopId: sid, series: 'commission_invoice', year })
      .toArray();
    const seqOf = new Map(ofYear.map((d) => [String(d._id), d.seq]));
    registerMismatch +=
      register.filter((r) => seqOf.get(String(r.documentId)) !== r.seq).length +
      Math.abs(register.length - seen.size);
    const counter = await db
      .collection('document_counters')
      .findOne({ shopId: sid, series: 'commission_invoice', year });
    counters.push({
      year,
      next: counter?.next,
      holder: counter?.holder ?? null,
      free: counter?.next === max + 1 && !counter?.holder,
    });
  }

  // exactly one audit entry and one `document.issued` event per issued document
  const issued = docs.filter((d) => d.state === 'issued');
  const audits = await db
    .collection('audit_events')
    .find({ shopId: sid, action: 'document.issue' }, { projection: { resource: 1 } })
    .toArray();
  const events = await db
    .collection('events')
    .find({ shopId: sid, type: 'document.issued' }, { projection: { body: 1 } })
    .toArray();
  const count = (ids) => ids.reduce((m, id) => m.set(id, (m.get(id) ?? 0) + 1), new Map());
  const auditsBy = count(audits.map((a) => String(a.resource?.id)));
  const eventsBy = count(events.map((e) => String(JSON.parse(e.body)?.data?.object?.id)));
  const one = (m) => issued.filter((d) => m.get(String(d._id)) === 1).length;
  const extra = (m) => [...m.values()].reduce((n, k) => n + k - 1, 0);
  const eventPending = docs.filter((d) => d.eventPendingAt).length;

  const figures = {
    lost,
    duplicated: duplicated + seqDuplicated + extra(auditsBy) + extra(eventsBy),
    gaps,
    unexpected,
    notIssued,
    batches: byStatus,
    documents: `${docs.length} (${invoices.length} invoices)`,
    highest: Math.max(0, ...invoices.map((d) => d.seq ?? 0)),
    audited: `${one(auditsBy)}/${issued.length}`,
    events: `${one(eventsBy)}/${issued.length}`,
    eventPending,
    registerMismatch,
    badText,
    counter: counters.map((c) => `${c.year}:next=${c.next},holder=${c.holder}`).join(' '),
    statementMismatch,
    documentsDueLeft: dueLeft,
  };
  const ok =
    lost === 0 &&
    figures.duplicated === 0 &&
    gaps === 0 &&
    unexpected === 0 &&
    notIssued === 0 &&
    badText === 0 &&
    registerMismatch === 0 &&
    statementMismatch === 0 &&
    dueLeft === 0 &&
    eventPending === 0 &&
    one(auditsBy) === issued.length &&
    one(eventsBy) === issued.length &&
    counters.every((c) => c.free);
  const running = batches.filter((b) => b.status === 'queued' || b.status === 'running').length;
  const settled = running === 0 && dueLeft === 0 && notIssued === 0 && eventPending === 0;
  return { figures, ok, completed: completed.length, invoices, settled };
}

module.exports = { documentFigures };
