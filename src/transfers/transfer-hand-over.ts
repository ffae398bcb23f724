import { Types } from 'mongoose';
import type { Clock } from '../common/clock/clock';
import { NotFoundError, ValidationError } from '../common/errors';
import { round2 } from '../common/money';
import { ShopScope, toObjectId } from '../common/tenancy';
import type { VendorsRepository } from '../vendors/vendors.repository';
import type { TransferDto } from './dto/transfer.dto';
import type { PayoutMethodsService } from './payout-methods.service';
import type { PayoutProvidersService } from './payout-providers.service';
import { toTransferResponse } from './transfer.mapper';
import type { TransferQueue } from './transfer-queue';
import { signalTransferMoved } from './transfer-signals';
import type { TransfersRepository } from './transfers.repository';

/** What the payout engine hands over once a batch is marked paid with a positive total. */
export interface PaidBatch {
  batchId: string | Types.ObjectId;
  vendorId: string | Types.ObjectId;
  /** The batch total (> 0, decimal). */
  amount: number;
  /** ISO 4217; omitted: the shop's transfer currency (PUT /v1/shop/payout-providers, default USD). */
  currency?: string;
}

/**
 * The payout engine's hand-over (DESIGN §10): a paid batch becomes its one transfer, stored
 * `pending` to the vendor's payout method before any provider is called, then queued for its rail.
 */
export class TransferHandOver {
  constructor(
    private readonly transfers: TransfersRepository,
    private readonly methods: PayoutMethodsService,
    private readonly providers: PayoutProvidersService,
    private readonly vendors: VendorsRepository,
    private readonly queue: TransferQueue,
    private readonly clock: Clock,
  ) {}

  /**
   * The engine's one call after a batch is marked paid with a positive total (never for a
   * `carried_forward` batch). Idempotent: the batch's transfer is created once (unique per batch)
   * and a repeat answers it; a new one is queued for its rail.
   */
  async createForPaidBatch(scope: ShopScope, batch: PaidBatch): Promise<TransferDto> {
    const amount = round2(batch.amount);
    if (!(amount > 0)) {
      throw new ValidationError('A transfer pays a positive batch total; a carried-forward batch has none');
    }
    const batchId = typeof batch.batchId === 'string' ? toObjectId(batch.batchId) : batch.batchId;
    if (!batchId) throw new ValidationError('batchId must be a 24-character hex id');
    const vendor = await this.vendors.findById(scope, batch.vendorId);
    if (!vendor) throw new NotFoundError('Vendor');
    const currency = (batch.currency ?? (await this.providers.currency(scope))).toUpperCase();
    if (!/^[A-Z]{3}$/.test(currency)) throw new ValidationError('currency must be an ISO 4217 code');
    const target = await this.methods.targetOf(scope, String(vendor._id));
    const { transfer, created } = await this.transfers.insertOnce(
      scope,
      {
        batchId,
        vendorId: vendor._id,
        vendorName: vendor.vendorName,
        method: target.type,
        destination: target.destination,
        recipientType: target.recipientType,
        amount,
        currency,
      },
      { from: null, to: 'pending', at: this.clock.now(), by: 'engine', note: null },
    );
    if (created) {
      signalTransferMoved({ method: transfer.method, state: 'pending', amount });
      await this.queue.send(scope, String(transfer._id));
    }
    return toTransferResponse(transfer);
  }
}
