/**
 * The transfer state machine (DESIGN §10). `pending`: stored, the rail not (successfully) called yet
 * — an outage keeps it here and it is retried; a provider that settles at once (Stripe) moves it to
 * `paid` in the one write of its answer; `sent`: the provider accepted it and its outcome is
 * followed (PayPal); `awaiting_reference`: the manual rail, until an operator records the bank
 * reference; `paid`; `failed` (refused after the attempts, or the provider's item failed/returned/
 * went unclaimed) and `reversed` (paid, then the provider took it back) are credited back once.
 * `reversed` is final as a state, but not as an amount: a further partial reversal raises its
 * `reversedAmount` (a history entry reversed → reversed, told as `transfer.failed`) and credits the
 * increase (TransfersService.reverse).
 */
export const TRANSFER_STATES = [
  'pending',
  'sent',
  'awaiting_reference',
  'paid',
  'failed',
  'reversed',
] as const;
export type TransferState = (typeof TRANSFER_STATES)[number];

export const PAYOUT_METHOD_TYPES = ['manual', 'stripe_connect', 'paypal'] as const;
export type PayoutMethodType = (typeof PAYOUT_METHOD_TYPES)[number];

/** Every allowed move; anything else is refused (a stale or repeated writer changes nothing). */
const TRANSITIONS: Record<TransferState, readonly TransferState[]> = {
  // pending → paid: Stripe's answer (settled at once) in one write, or a follow-up finding it made.
  pending: ['sent', 'paid', 'awaiting_reference', 'failed'],
  sent: ['paid', 'failed'],
  // The operator records the bank reference (paid), or the bank refused the payment (failed).
  awaiting_reference: ['paid', 'failed'],
  paid: ['reversed'],
  // An operator retry of a failed transfer whose credit-back was not paid out yet.
  failed: ['pending'],
  reversed: [],
};

export function canMove(from: TransferState, to: TransferState): boolean {
  return TRANSITIONS[from].includes(to);
}

/** The states a move to `to` may start from (the condition of the conditional update). */
export function sourcesOf(to: TransferState): TransferState[] {
  return TRANSFER_STATES.filter((s) => TRANSITIONS[s].includes(to));
}

/** States whose amount goes back to the vendor's balance as an ADDITION adjustment. */
export function creditsBack(state: TransferState): boolean {
  return state === 'failed' || state === 'reversed';
}

/** States the rail still has work in (the sweeper re-drives them when their job was lost). */
export const OPEN_STATES: readonly TransferState[] = ['pending', 'sent'];

/** The states whose move is told to the systems around us (a reversal is a failure to them). */
export const TRANSFER_EVENT_OF: Partial<Record<TransferState, 'transfer.paid' | 'transfer.failed'>> = {
  paid: 'transfer.paid',
  failed: 'transfer.failed',
  reversed: 'transfer.failed',
};
