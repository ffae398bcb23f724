import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * What the process is doing on behalf of whom: one HTTP request (its request id) or one queue job.
 * Carried through async calls with AsyncLocalStorage, so lower layers (the database command
 * observer, logs) can attribute their work without every signature passing an id along.
 */
export interface OperationContext {
  /** Our request id (answered as `x-request-id`) or `job:<queue>:<job id>`. */
  readonly id: string;
  readonly kind: 'http' | 'job';
  /** The `x-request-id` the caller sent (when sane): theirs, recorded beside ours, never used as ours. */
  readonly clientRequestId?: string;
  /** A named part of the operation, e.g. `auth` while the credential is checked. */
  readonly phase?: string;
  /**
   * Who the operation acts for: set once the request's credential is verified (the audit trail's
   * `actor`); absent for jobs, webhooks and sign-ins.
   */
  readonly actor?: OperationActor;
}

/** The verified caller of a request: shop token → its shop, merchant token → its key, vendor token → its user. */
export interface OperationActor {
  kind: 'shop' | 'merchant' | 'vendor';
  id: string;
}

const storage = new AsyncLocalStorage<OperationContext>();

export const OperationContexts = {
  run<T>(context: OperationContext, fn: () => T): T {
    return storage.run(context, fn);
  },

  /** Runs `fn` as a named phase of the current operation (no-op outside one). */
  phase<T>(phase: string, fn: () => T): T {
    const current = storage.getStore();
    return current ? storage.run({ ...current, phase }, fn) : fn();
  },

  current(): OperationContext | undefined {
    return storage.getStore();
  },

  /**
   * Records the verified caller on the current operation (called once by the credential check),
   * so everything the request does later — also inside phases started afterwards — sees it.
   */
  identify(actor: OperationActor): void {
    const current = storage.getStore() as { actor?: OperationActor } | undefined;
    if (current) current.actor = actor;
  },
};
