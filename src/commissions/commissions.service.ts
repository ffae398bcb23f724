import { Readable } from 'node:stream';
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
import { collapseInOrder, planSkuWrites, validateSkuElements } from './sku-upload';

const CHUNK_CHARS = 64 * 1024;

@Injectable()
export class CommissionsService {
  constructor(
    private readonly skus: SkuCommissionsRepository,
    private readonly vendors: VendorsService,
  ) {}

  /**
   * SKU upload (spec §4.5): invalid elements are reported, valid ones are written — one read of the
   * named SKUs and one bulk write for the whole request, however many elements.
   */
  async uploadSkus(scope: ShopScope, body: SkuUploadDto): Promise<SkuUploadResultDto> {
    const { valid, errors } = validateSkuElements(body.skus);
    const collapsed = collapseInOrder(valid);
    let created = 0;
    let updated = 0;
    if (collapsed.size > 0) {
      const plan = planSkuWrites(collapsed, await this.skus.findBySkus(scope, [...collapsed.keys()]));
      created = plan.created;
      updated = plan.updated;
      const lost = await this.skus.write(scope, plan);
      if (lost.length > 0) {
        // Created by a concurrent upload between our read and our insert: they are updates now.
        const retry = new Map(lost.map((sku) => [sku, collapsed.get(sku)!]));
        const again = planSkuWrites(retry, await this.skus.findBySkus(scope, lost));
        created -= lost.length;
        updated += lost.length;
        await this.skus.write(scope, { inserts: [], updates: again.updates });
      }
    }
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
