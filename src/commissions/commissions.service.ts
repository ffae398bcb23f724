import { Readable } from 'node:stream';
import { Types } from 'mongoose';
import { Injectable } from '@nestjs/common';
import type { ShopScope } from '../common/tenancy';
import { VendorsService } from '../vendors/vendors.service';
import {
  SkuCommissionDto,
  SkuUploadDto,
  SkuUploadResultDto,
  VendorCommissionListDto,
} from './dto/commission.dto';
import { RowCursor, SkuCommissionRow, SkuCommissionsRepository } from './sku-commissions.repository';
import { skuAudit } from './sku-audit';
import { AuditTrail } from '../audit/audit-trail.service';
import { Clock } from '../common/clock/clock';
import {
  collapseInOrder,
  countUpload,
  newSkuRecords,
  planSkuUpdates,
  StoredSku,
  validateSkuElements,
} from './sku-upload';

const CHUNK_CHARS = 64 * 1024;

@Injectable()
export class CommissionsService {
  constructor(
    private readonly skus: SkuCommissionsRepository,
    private readonly vendors: VendorsService,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
  ) {}

  /**
   * SKU upload (spec §4.5): invalid elements are reported, valid ones are written. However many
   * elements: one insert of the SKUs as new records (the unique index refuses those that exist), one
   * read of the refused ones, and one bulk write of those whose values change.
   */
  async uploadSkus(scope: ShopScope, body: SkuUploadDto): Promise<SkuUploadResultDto> {
    const { valid, errors } = validateSkuElements(body.skus);
    const collapsed = collapseInOrder(valid);
    const now = this.clock.now();
    const stamp = this.audit.begin();
    const audit = skuAudit(this.audit, scope, stamp);
    // One event per record created or changed, each in its record's outbox (written with it).
    const inserted = await this.skus.insertNew(scope, newSkuRecords(collapsed), now, audit);
    const existed = new Set(inserted.refused);
    const events = [...inserted.events];
    let applied: 'all' | 'check' = 'all';
    if (existed.size > 0) {
      const known = new Map([...collapsed].filter(([sku]) => existed.has(sku)));
      const stored = await this.skus.findBySkus(scope, [...existed]);
      const { updates, missing } = planSkuUpdates(known, stored);
      const written = await this.skus.applyUpdates(
        scope,
        updates.map((u) => {
          const current = [...stored.values()].find((r) => r._id.equals(u._id))!;
          return { ...u, sku: current.sku, before: skuView(current) };
        }),
        now,
        audit,
      );
      events.push(...written.events);
      if (written.applied === 'check') applied = 'check';
      // Records are never deleted, so nothing should be missing; if one is, it is written, not dropped.
      if (missing.length) {
        const retry = new Map(missing.map((sku) => [sku, collapsed.get(sku)!]));
        const again = await this.skus.insertNew(scope, newSkuRecords(retry), now, audit);
        events.push(...again.events);
      }
    }
    await this.audit.commit(
      scope,
      this.skus.outbox,
      stamp,
      events,
      applied === 'all' ? events.map(idOf) : 'check',
    );
    const { created, updated } = countUpload(collapsed, existed);
    return { success: errors.length === 0, received: body.skus.length, created, updated, errors };
  }

  /**
   * `{"skus": [...]}` as a stream: the records are read with a cursor and the JSON written as they
   * come, so memory stays flat however many SKUs the shop has. The first record is read before
   * anything is sent, so a failing database still answers a proper error response.
   */
  async skuListStream(scope: ShopScope): Promise<Readable> {
    const cursor = this.skus.cursor(scope);
    let first: SkuCommissionRow | null;
    try {
      first = await cursor.next();
    } catch (err) {
      await cursor.close().catch(() => undefined);
      throw err;
    }
    return Readable.from(skuListJson(first, cursor), { objectMode: false });
  }

  async vendorCommissions(scope: ShopScope): Promise<VendorCommissionListDto> {
    return { vendors: await this.vendors.listActiveCommissions(scope) };
  }
}

export function toSkuResponse(r: SkuCommissionRow): SkuCommissionDto {
  return {
    sku: r.sku,
    costOfGoods: r.costOfGoods ?? null,
    commissionType: r.commissionType ?? null,
    commissionAmount: r.commissionAmount ?? null,
  };
}

async function* skuListJson(
  first: SkuCommissionRow | null,
  cursor: RowCursor<SkuCommissionRow>,
): AsyncGenerator<string> {
  try {
    let chunk = '{"skus":[';
    let separator = '';
    for (let row = first; row; row = await cursor.next()) {
      chunk += separator + JSON.stringify(toSkuResponse(row));
      separator = ',';
      if (chunk.length >= CHUNK_CHARS) {
        yield chunk;
        chunk = '';
      }
    }
    yield chunk + ']}';
  } finally {
    await cursor.close().catch(() => undefined);
  }
}

function skuView(r: StoredSku): Record<string, unknown> {
  return {
    commissionType: r.commissionType,
    commissionAmount: r.commissionAmount,
    costOfGoods: r.costOfGoods,
  };
}

function idOf(e: { resource: { id: string } }): Types.ObjectId {
  return new Types.ObjectId(e.resource.id);
}
