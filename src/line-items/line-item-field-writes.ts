import { Types } from 'mongoose';
import type { AuditRecord, AuditStamp } from '../audit/audit-record';
import type { AuditTrail } from '../audit/audit-trail.service';
import { skuAudit } from '../commissions/sku-audit';
import type { SkuCommissionsRepository } from '../commissions/sku-commissions.repository';
import type { ShopScope } from '../common/tenancy';
import type { LineItem } from './line-item.schema';
import { FieldValues, guardedFields } from './line-item-update.rules';
import type { GuardedSet } from './line-item-views';
import type { LineItemsRepository } from './line-items.repository';
import type { VendorTally } from './vendor-tally.service';

/**
 * The writes of POST /v1/lineitems/update and of its by-SKU job (LineItemUpdatesService,
 * SkuUpdateRunner): hand-given figures on line items, guarded against the payout engine, and
 * per-unit costs on SKU records, each change with its audit event.
 */
export class LineItemFieldWrites {
  constructor(
    private readonly lineItems: LineItemsRepository,
    private readonly skus: SkuCommissionsRepository,
    private readonly audit: AuditTrail,
    private readonly tally: VendorTally,
  ) {}

  /**
   * Writes hand-given figures (rounded to 2 dp; a payout also moves balance and payoutStatus) to
   * line items that are not frozen, guarded against the payout engine. Returns the ids that turned
   * out frozen meanwhile (reported as skipped); other lost races are retried once from a fresh read.
   */
  async writeFields(
    scope: ShopScope,
    plans: Array<{ line: LineItem; fields: FieldValues }>,
    stamp: AuditStamp | null,
  ): Promise<Set<string>> {
    if (plans.length === 0) return new Set();
    // The event of each line's write, by line: a retry replaces its line's event (only one lands).
    const events = new Map<string, AuditRecord | null>();
    const guarded = (line: LineItem, fields: FieldValues): GuardedSet => {
      const write = guardedFields(line, fields);
      write.event = this.lineEvent(scope, stamp, line, write.set);
      events.set(String(line._id), write.event);
      return write;
    };
    const first = plans.map((p) => guarded(p.line, p.fields));
    const matched = await this.lineItems.applyGuardedSets(scope, first, stamp);
    const frozen = new Set<string>();
    if (matched < plans.length) {
      const fresh = await this.lineItems.findByIds(
        scope,
        plans.map((p) => p.line._id),
      );
      for (const l of fresh) if (l.frozen) frozen.add(String(l._id));
      const fieldsById = new Map(plans.map((p) => [String(p.line._id), p.fields]));
      const retry = fresh.filter((l) => !l.frozen).map((l) => guarded(l, fieldsById.get(String(l._id))!));
      if ((await this.lineItems.applyGuardedSets(scope, retry, stamp)) < retry.length) {
        const ids = retry.map((r) => r.id);
        for (const id of await this.lineItems.frozenIds(scope, ids)) frozen.add(id);
      }
    }
    await this.audit.commit(
      scope,
      this.lineItems.outbox,
      stamp,
      [...events.values()],
      matched === plans.length ? 'all' : 'check',
    );
    // The balance sums of the vendors the lines had and have now (a hand-written figure moves payout).
    await this.tally.settle(scope, [...plans.map((p) => p.line.vendorId)]);
    return frozen;
  }

  /** A hand-written figure's event: the figures it changes (as read, and as written). */
  private lineEvent(
    scope: ShopScope,
    stamp: AuditStamp | null,
    line: LineItem,
    set: Record<string, unknown>,
  ): AuditRecord | null {
    const before = Object.fromEntries(
      Object.keys(set).map((k) => [k, (line as unknown as Record<string, unknown>)[k] ?? null]),
    );
    return this.audit.changed(
      scope,
      stamp,
      'line_item.update',
      { type: 'line_item', id: line._id },
      before,
      set,
    );
  }

  /** Per-unit costs of goods on the SKU records, each change with its event. */
  async setCosts(
    scope: ShopScope,
    entries: Array<{ sku: string; costOfGoods: number }>,
    stamp: AuditStamp | null,
  ): Promise<void> {
    const written = await this.skus.setCostOfGoods(scope, entries, skuAudit(this.audit, scope, stamp));
    await this.audit.commit(
      scope,
      this.skus.outbox,
      stamp,
      written.events,
      written.applied === 'all' ? written.events.map((e) => idOf(e)) : 'check',
    );
  }
}

function idOf(e: AuditRecord): Types.ObjectId {
  return new Types.ObjectId(e.resource.id);
}
