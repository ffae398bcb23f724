import { Injectable } from '@nestjs/common';
import {
  calculateLineItem,
  CommissionRate,
  LadderResult,
  LineItemFigures,
  money,
  round2,
} from '../common/money';
import { NotFoundError, ValidationError } from '../common/errors';
import type { ShopScope } from '../common/tenancy';
import { parseDateTime } from '../common/dates/date-time';
import type {
  CommissionExplanationDto,
  CommissionFiguresDto,
  CommissionPreviewDto,
  CommissionTermsDto,
  LineCommissionExplanationDto,
} from './dto/commission-explain.dto';
import { ladderFor, LineItemPricing, reprice } from './line-item-pricing';
import type { LineItem } from './line-item.schema';
import { LineItemsRepository } from './line-items.repository';

const PLATFORM_ID = /^[1-9][0-9]{0,15}$/;

/**
 * Explain and preview of the commission ladder (DESIGN §13): the same pricing read and the same
 * money function as ingestion and recalculation, so what they show is what a line gets.
 */
@Injectable()
export class CommissionExplainService {
  constructor(
    private readonly lineItems: LineItemsRepository,
    private readonly pricing: LineItemPricing,
  ) {}

  /** A stored sale line: its inputs, every level's candidate, the applied source and the figures. */
  async explainLine(
    scope: ShopScope,
    orderIdParam: string,
    lineItemIdParam: string,
  ): Promise<LineCommissionExplanationDto> {
    const orderId = platformId(orderIdParam);
    const lineItemId = platformId(lineItemIdParam);
    if (orderId === null || lineItemId === null) throw new NotFoundError('Line item');
    const [line] = await this.lineItems.findByPairs(scope, [{ orderId, lineItemId }]);
    if (!line) throw new NotFoundError('Line item');
    const ctx = await this.pricing.load(scope, {
      vendorNames: [line.vendorName],
      vendorIds: [line.vendorId],
      skus: [line.sku],
      productIds: [line.productId],
    });
    const { vendor, figures, ladder } = reprice(ctx, line);
    const productType = line.productId ? (ctx.productTypes.get(line.productId) ?? null) : null;
    return {
      orderId: line.orderId,
      lineItemId: line.lineItemId,
      ...explanation(
        {
          vendorId: vendor ? String(vendor._id) : null,
          sku: line.sku ?? null,
          productId: line.productId ?? null,
          productType,
          orderCreatedAt: line.orderCreatedAt.toISOString(),
          quantity: line.quantity,
          sales: line.sales,
          discount: line.discount,
          salesAfterDiscount: line.salesAfterDiscount,
        },
        ladder,
        figures,
      ),
      stored: figuresOf(line),
      frozen: line.frozen,
    };
  }

  /** A hypothetical line of a vendor: one read (shop, vendor, SKU record, product, rules). */
  async preview(scope: ShopScope, body: CommissionPreviewDto): Promise<CommissionExplanationDto> {
    const sales = round2(money(body.price).times(body.quantity));
    const discount = round2(body.discount ?? 0);
    if (discount > sales)
      throw new ValidationError('discount must be at most price × quantity', {
        fields: { discount: ['max'] },
      });
    const at = body.orderDate ? parseDateTime(body.orderDate) : new Date();
    if (!at) throw new ValidationError('orderDate must be an ISO 8601 date-time');
    const ctx = await this.pricing.load(scope, {
      vendorIds: [body.vendorId],
      skus: [body.sku ?? null],
      productIds: [body.productId ?? null],
      productTypes: [body.productType ?? null],
    });
    const vendor = ctx.vendorsById.get(body.vendorId) ?? null;
    if (!vendor)
      throw new ValidationError('vendorId is not a vendor of this shop', {
        fields: { vendorId: ['unknown'] },
      });
    const keys = { sku: body.sku ?? null, productId: body.productId ?? null, orderCreatedAt: at };
    const ladder = ladderFor(ctx, vendor, keys, body.productType);
    const sku = keys.sku ? (ctx.skus.get(keys.sku) ?? null) : null;
    const figures = calculateLineItem(
      {
        price: body.price,
        quantity: body.quantity,
        discounts: [discount],
        rate: ladder.applied,
        costOfGoods: sku?.costOfGoods ?? null,
      },
      ctx.settings,
    );
    const productType =
      body.productType ?? (keys.productId ? (ctx.productTypes.get(keys.productId) ?? null) : null);
    return explanation(
      {
        vendorId: String(vendor._id),
        sku: keys.sku,
        productId: keys.productId,
        productType,
        orderCreatedAt: at.toISOString(),
        quantity: body.quantity,
        sales: figures.sales,
        discount: figures.discount,
        salesAfterDiscount: figures.salesAfterDiscount,
      },
      ladder,
      figures,
    );
  }
}

function explanation(
  inputs: CommissionExplanationDto['inputs'],
  ladder: LadderResult,
  figures: LineItemFigures,
): CommissionExplanationDto {
  return {
    inputs,
    candidates: ladder.candidates.map((c) => ({
      level: c.level,
      matched: c.matched,
      reason: c.reason,
      detail: c.detail,
      ruleId: c.ruleId,
      ruleScope: c.ruleScope,
      terms: c.terms ? termsOf(c.terms) : null,
    })),
    applied: ladder.applied ? termsOf(ladder.applied) : null,
    figures: figuresOf(figures),
  };
}

function termsOf(r: CommissionRate): CommissionTermsDto {
  return {
    level: r.source,
    type: r.type,
    amount: r.amount,
    flatAmount: r.flatAmount ?? null,
    minimum: r.minimum ?? null,
    maximum: r.maximum ?? null,
    ruleId: r.ruleId ?? null,
  };
}

function figuresOf(f: Pick<LineItem, keyof CommissionFiguresDto> | LineItemFigures): CommissionFiguresDto {
  return {
    commission: f.commission,
    commissionPlan: f.commissionPlan ?? null,
    commissionRule: f.commissionRule
      ? { level: f.commissionRule.level, id: String(f.commissionRule.id) }
      : null,
    taxOnCommissions: f.taxOnCommissions,
    tcs: f.tcs,
    totalGlobalDeductions: f.totalGlobalDeductions,
    payout: f.payout,
  };
}

function platformId(param: string): number | null {
  if (!PLATFORM_ID.test(param)) return null;
  const n = Number(param);
  return Number.isSafeInteger(n) ? n : null;
}
