import { Injectable } from '@nestjs/common';
import type { ProviderCall } from './payout-rail';
import { RailOutage, RailRefusal } from './payout-rail';

const listeners = new Set<(call: ProviderCall) => void>();

/** Subscribes to every payout-provider call of this process (the metrics); returns the unsubscribe. */
export function onProviderCall(listener: (call: ProviderCall) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Times one provider call, reports it, and turns a failure into an outage or a refusal. */
@Injectable()
export class ProviderCalls {
  async time<T>(
    provider: ProviderCall['provider'],
    operation: string,
    classify: (err: unknown) => RailOutage | RailRefusal,
    call: () => Promise<T>,
  ): Promise<T> {
    const started = process.hrtime.bigint();
    const report = (outcome: ProviderCall['outcome']) => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      for (const l of listeners) l({ provider, operation, seconds, outcome });
    };
    try {
      const result = await call();
      report('ok');
      return result;
    } catch (err) {
      const e = err instanceof RailOutage || err instanceof RailRefusal ? err : classify(err);
      report(e instanceof RailOutage ? 'outage' : 'refused');
      throw e;
    }
  }
}
