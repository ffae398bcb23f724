import type { PayoutMethodType, TransferState } from './transfer-states';

/** A transfer that reached a state, for the metrics (in-process signal, like job runs). */
export interface TransferMoved {
  method: PayoutMethodType;
  state: TransferState;
  amount: number;
}

const listeners = new Set<(m: TransferMoved) => void>();

export function onTransferMoved(listener: (m: TransferMoved) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function signalTransferMoved(m: TransferMoved): void {
  for (const l of listeners) l(m);
}
