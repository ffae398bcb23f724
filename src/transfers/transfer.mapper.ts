import type { PayoutMethodDto } from './dto/payout-method.dto';
import type { BatchTransferDto, TransferDto } from './dto/transfer.dto';
import type { PayoutMethod } from './payout-method.schema';
import type { RailTransfer } from './rails/payout-rail';
import type { Transfer } from './transfer.schema';
import { ledgerOf } from './transfer-credits';

const iso = (d: Date | null | undefined) => (d ? new Date(d).toISOString() : null);

export function toTransferResponse(t: Transfer): TransferDto {
  return {
    _id: String(t._id),
    batchId: String(t.batchId),
    vendorId: String(t.vendorId),
    vendorName: t.vendorName,
    method: t.method,
    destination: t.destination ?? null,
    amount: t.amount,
    currency: t.currency,
    state: t.state,
    providerId: t.providerId ?? null,
    providerStatus: t.providerStatus ?? null,
    attempts: t.attempts ?? 0,
    lastError: t.lastError ?? null,
    reference: t.reference ?? null,
    creditAdjustmentId: t.creditAdjustmentId ? String(t.creditAdjustmentId) : null,
    creditAdjustmentIds: ledgerOf(t).map((c) => String(c.adjustmentId)),
    reversedAmount: t.reversedAmount ?? null,
    createdAt: new Date(t.createdAt).toISOString(),
    sentAt: iso(t.sentAt),
    settledAt: iso(t.settledAt),
    failedAt: iso(t.failedAt),
    reversedAt: iso(t.reversedAt),
    history: (t.history ?? []).map((h) => ({
      from: h.from ?? null,
      to: h.to,
      at: new Date(h.at).toISOString(),
      by: h.by,
      note: h.note ?? null,
    })),
  };
}

/** A vendor's method; none stored reads as `manual`. */
export function toPayoutMethodResponse(vendorId: string, m: PayoutMethod | null): PayoutMethodDto {
  return {
    vendorId,
    type: m?.type ?? 'manual',
    accountId: m?.accountId ?? null,
    receiver: m?.receiver ?? null,
    recipientType: m?.recipientType ?? null,
    updatedAt: iso(m?.updatedAt),
  };
}

export function toBatchTransfer(t: Transfer): BatchTransferDto {
  return {
    id: String(t._id),
    method: t.method,
    state: t.state,
    amount: t.amount,
    currency: t.currency,
    providerId: t.providerId ?? null,
    reference: t.reference ?? null,
  };
}

/** What a rail needs of a transfer (never the whole document). */
export function railTransfer(t: Transfer): RailTransfer {
  return {
    id: String(t._id),
    shopId: String(t.shopId),
    vendorId: String(t.vendorId),
    batchId: String(t.batchId),
    amount: t.amount,
    currency: t.currency,
    destination: t.destination ?? null,
    recipientType: t.recipientType ?? null,
    providerId: t.providerId ?? null,
  };
}
