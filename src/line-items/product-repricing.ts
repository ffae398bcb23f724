import { Injectable } from '@nestjs/common';
import type { Types } from 'mongoose';
import type { ShopScope } from '../common/tenancy';
import { LineItemsRepository } from './line-items.repository';
import { RecalculationService } from './recalculation.service';

const PAGE = 1000;

/**
 * When a product's type arrives or changes (products/create|update), its unpaid, unfrozen lines may
 * fall under another product-type rule (DESIGN §13): they are queued for recalculation, which
 * re-applies the ladder (frozen and paid lines are never rewritten: its guards). One index-served
 * read when the product has no such line — the common case — and nothing at all when the type is
 * unchanged.
 */
@Injectable()
export class ProductRepricing {
  constructor(
    private readonly lineItems: LineItemsRepository,
    private readonly recalculation: RecalculationService,
  ) {}

  /** Queues the recalculation of the product's unpaid, unfrozen sale lines; the job id, or null: none. */
  async typeChanged(scope: ShopScope, productId: string): Promise<string | null> {
    const ids: Types.ObjectId[] = [];
    let after: Types.ObjectId | null = null;
    for (;;) {
      const page = await this.lineItems.findUnpaidOfProducts(scope, [productId], after, PAGE);
      ids.push(...page.filter((l) => l.type !== 'refund').map((l) => l._id));
      if (page.length < PAGE) break;
      after = page[page.length - 1]._id;
    }
    return this.recalculation.queueRecalculation(scope, ids);
  }
}
