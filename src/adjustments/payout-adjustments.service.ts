import { Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { AuditTrail } from '../audit/audit-trail.service';
import { Clock } from '../common/clock/clock';
import { AdjustmentPaidError, NotFoundError, ValidationError } from '../common/errors';
import { ShopScope, toObjectId } from '../common/tenancy';
import { dayRangeFilter } from '../common/dates/day-range';
import { isDuplicateKeyError } from '../common/errors/duplicate-key';
import { signedAmount } from './signed-amount';
import {
  CreatePayoutAdjustmentDto,
  DeletedPayoutAdjustmentDto,
  PayoutAdjustmentDto,
  PayoutAdjustmentListDto,
  PayoutAdjustmentListQueryDto,
  UpdatePayoutAdjustmentDto,
} from './dto/payout-adjustment.dto';
import { formatCustomId, toPayoutAdjustmentResponse } from './payout-adjustment.mapper';
import { PayoutAdjustment } from './payout-adjustment.schema';
import { AdjustmentChanges, PayoutAdjustmentsRepository } from './payout-adjustments.repository';
import { VendorsRepository } from '../vendors/vendors.repository';

const UPDATABLE = ['amount', 'type', 'comments', 'customItemDate'] as const;

/**
 * The date of a system ADDITION not released yet: later than any cut-off, so no batch selects it
 * (and `markPaid` re-checks the date), while the transfer it credits could still be retried.
 */
export const HELD_UNTIL_RELEASED = new Date('9999-12-31T00:00:00.000Z');

/**
 * Payout adjustments (spec §2.9, §3). Callers create, edit and delete UNPAID adjustments; only the
 * payout engine moves one to PAID, after which every edit or delete is refused with 409.
 */
@Injectable()
export class PayoutAdjustmentsService {
  constructor(
    private readonly adjustments: PayoutAdjustmentsRepository,
    private readonly vendors: VendorsRepository,
    private readonly clock: Clock,
    private readonly audit: AuditTrail,
  ) {}

  async create(scope: ShopScope, body: CreatePayoutAdjustmentDto): Promise<PayoutAdjustmentDto> {
    const vendor = await this.vendors.findById(scope, body.vendorId);
    if (!vendor) {
      throw new ValidationError(`vendorId ${body.vendorId} is not a vendor of this shop`, {
        fields: { vendorId: [`vendorId ${body.vendorId} is not a vendor of this shop`] },
      });
    }
    const seq = await this.adjustments.nextSequence(scope);
    const data = {
      _id: new Types.ObjectId(),
      vendorId: vendor._id,
      vendorName: vendor.vendorName,
      amount: signedAmount(body.type, body.amount),
      type: body.type,
      customId: formatCustomId(seq),
      comments: body.comments ?? '',
      customItemDate: body.customItemDate ? new Date(body.customItemDate) : this.clock.now(),
    };
    const stamp = this.audit.begin();
    const event = this.audit.created(scope, stamp, 'payout_adjustment.create', resource(data._id), {
      ...auditView(data),
      status: 'UNPAID',
    });
    const created = await this.adjustments.create(scope, data, stamp, event);
    await this.audit.commit(scope, this.adjustments.outbox, stamp, [event], 'all');
    return toPayoutAdjustmentResponse(created);
  }

  async list(scope: ShopScope, q: PayoutAdjustmentListQueryDto): Promise<PayoutAdjustmentListDto> {
    const vendorId = q.vendorId ? toObjectId(q.vendorId) : undefined;
    if (vendorId === null) throw new ValidationError('vendorId must be a 24-character hex id');
    const { total, items } = await this.adjustments.page(
      scope,
      { vendorId, status: q.status, type: q.type, customItemDate: dayRangeFilter(q.start, q.end) },
      { offset: (q.page - 1) * q.limit, limit: q.limit },
    );
    return { items: items.map(toPayoutAdjustmentResponse), total, page: q.page, limit: q.limit };
  }

  async get(scope: ShopScope, id: string): Promise<PayoutAdjustmentDto> {
    return toPayoutAdjustmentResponse(await this.load(scope, id));
  }

  async update(scope: ShopScope, id: string, body: UpdatePayoutAdjustmentDto): Promise<PayoutAdjustmentDto> {
    const current = await this.load(scope, id);
    if (!UPDATABLE.some((k) => body[k] !== undefined)) {
      throw new ValidationError(`Send at least one of ${UPDATABLE.join(', ')}`);
    }
    if (current.status === 'PAID') throw new AdjustmentPaidError();
    const changes: AdjustmentChanges = {};
    if (body.amount !== undefined || body.type !== undefined) {
      const type = body.type ?? current.type;
      changes.type = type;
      changes.amount = signedAmount(type, body.amount ?? Math.abs(current.amount));
    }
    if (body.comments !== undefined) changes.comments = body.comments;
    if (body.customItemDate !== undefined) changes.customItemDate = new Date(body.customItemDate);
    const stamp = this.audit.begin();
    const before = auditView(current);
    const event = this.audit.changed(
      scope,
      stamp,
      'payout_adjustment.update',
      resource(current._id),
      before,
      {
        ...before,
        ...changes,
      },
    );
    const updated = await this.adjustments.updateUnpaid(scope, current._id, changes, stamp, event);
    if (!updated) throw await this.whyUnchanged(scope, id);
    await this.audit.commit(scope, this.adjustments.outbox, stamp, [event], [updated._id]);
    return toPayoutAdjustmentResponse(updated);
  }

  async remove(scope: ShopScope, id: string): Promise<DeletedPayoutAdjustmentDto> {
    const current = await this.load(scope, id);
    if (current.status === 'PAID') throw new AdjustmentPaidError();
    // The document (and its outbox) goes: the deletion event is stored as pending first.
    const pending = await this.audit.intendDelete(
      scope,
      this.audit.begin(),
      'payout_adjustment.delete',
      resource(current._id),
      { ...auditView(current), status: current.status },
      'payout_adjustments',
    );
    const deleted = await this.adjustments.deleteUnpaid(scope, current._id);
    await this.audit.finishDelete(scope, pending, deleted);
    if (!deleted) throw await this.whyUnchanged(scope, id);
    return { _id: String(current._id), deleted: true };
  }

  /**
   * A system ADDITION (no caller made it): a credit-back of a failed or reversed payout transfer
   * (DESIGN §10), so the next batch pays the amount again. Exactly once per `id` — the id the
   * transfer recorded for this credit becomes the adjustment's `_id`, so a repeat finds the first.
   * `held`: dated past any cut-off (no batch can pay it) until `releaseSystemAddition`, which the
   * transfer side calls once it has checked the transfer still owes it.
   */
  async createSystemAddition(
    scope: ShopScope,
    input: {
      id: Types.ObjectId;
      vendorId: Types.ObjectId;
      amount: number;
      comments: string;
      held?: boolean;
    },
  ): Promise<PayoutAdjustmentDto> {
    const existing = await this.adjustments.findById(scope, String(input.id));
    if (existing) return toPayoutAdjustmentResponse(existing);
    const vendor = await this.vendors.findById(scope, String(input.vendorId));
    if (!vendor) throw new NotFoundError('Vendor');
    const seq = await this.adjustments.nextSequence(scope);
    try {
      const created = await this.adjustments.create(scope, {
        _id: input.id,
        vendorId: vendor._id,
        vendorName: vendor.vendorName,
        amount: signedAmount('ADDITION', input.amount),
        type: 'ADDITION',
        customId: formatCustomId(seq),
        comments: input.comments,
        customItemDate: input.held ? HELD_UNTIL_RELEASED : this.clock.now(),
      });
      return toPayoutAdjustmentResponse(created);
    } catch (err) {
      if (!isDuplicateKeyError(err)) throw err;
      const raced = await this.adjustments.findById(scope, String(input.id));
      if (!raced) throw err;
      return toPayoutAdjustmentResponse(raced);
    }
  }

  /** A held system ADDITION becomes payable, dated `at` (false: not held, paid or withdrawn). */
  releaseSystemAddition(scope: ShopScope, id: Types.ObjectId, at: Date): Promise<boolean> {
    return this.adjustments.releaseHeld(scope, id, HELD_UNTIL_RELEASED, at);
  }

  /**
   * Takes a system ADDITION back while no batch has paid it (a failed transfer retried instead):
   * `withdrawn`, `absent` (never made), or `paid` (already paid out: it must stay).
   */
  async withdrawSystemAddition(
    scope: ShopScope,
    id: Types.ObjectId,
  ): Promise<'withdrawn' | 'absent' | 'paid'> {
    const current = await this.adjustments.findById(scope, String(id));
    if (!current) return 'absent';
    if (current.status === 'PAID') return 'paid';
    const pending = await this.audit.intendDelete(
      scope,
      this.audit.begin(),
      'payout_adjustment.delete',
      resource(current._id),
      { ...auditView(current), status: current.status },
      'payout_adjustments',
    );
    const deleted = await this.adjustments.deleteUnpaid(scope, current._id);
    await this.audit.finishDelete(scope, pending, deleted);
    if (deleted) return 'withdrawn';
    return (await this.adjustments.findById(scope, String(id))) ? 'paid' : 'absent';
  }

  private async load(scope: ShopScope, id: string): Promise<PayoutAdjustment> {
    const found = await this.adjustments.findById(scope, id);
    if (!found) throw new NotFoundError('Payout adjustment');
    return found;
  }

  /** A conditional write matched nothing: the record was paid or deleted meanwhile. */
  private async whyUnchanged(scope: ShopScope, id: string): Promise<Error> {
    const now = await this.adjustments.findById(scope, id);
    return now?.status === 'PAID' ? new AdjustmentPaidError() : new NotFoundError('Payout adjustment');
  }
}

function resource(id: Types.ObjectId): { type: 'payout_adjustment'; id: Types.ObjectId } {
  return { type: 'payout_adjustment', id };
}

/** What the audit trail compares of an adjustment. */
function auditView(
  a: Pick<PayoutAdjustment, 'vendorId' | 'amount' | 'type' | 'customId' | 'comments' | 'customItemDate'>,
): Record<string, unknown> {
  return {
    vendorId: a.vendorId,
    amount: a.amount,
    type: a.type,
    customId: a.customId,
    comments: a.comments,
    customItemDate: a.customItemDate,
  };
}
