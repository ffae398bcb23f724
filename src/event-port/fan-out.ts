import { createHash } from 'node:crypto';
import { Types } from 'mongoose';
import { merchantReads, type EventType } from './event-catalogue';

/** What fan-out needs of an endpoint. */
export interface FanOutTarget {
  _id: Types.ObjectId;
  enabledEvents: string[];
  status: 'enabled' | 'disabled';
  /** `merchant`: configured with a merchant token; absent on endpoints stored before issue 28 (shop). */
  eventScope?: 'shop' | 'merchant' | null;
}

/**
 * Whether the credential that configured an endpoint may receive this type at all: a merchant
 * token's endpoint only what a merchant token reads (its `*` means those), whatever its list says.
 */
export function mayReceive(endpoint: Pick<FanOutTarget, 'eventScope'>, type: string): boolean {
  return type === 'ping' || endpoint.eventScope !== 'merchant' || merchantReads(type);
}

/** Whether an endpoint takes an event of this type (`ping` goes only where it is sent by hand). */
export function subscribes(endpoint: FanOutTarget, type: EventType): boolean {
  if (endpoint.status !== 'enabled' || type === 'ping' || !mayReceive(endpoint, type)) return false;
  return endpoint.enabledEvents.includes('*') || endpoint.enabledEvents.includes(type);
}

/** The endpoints an event goes to. */
export function matchingEndpoints<T extends FanOutTarget>(endpoints: T[], type: EventType): T[] {
  return endpoints.filter((e) => subscribes(e, type));
}

/**
 * The delivery of one event to one endpoint has one id, derived from both: fanning out twice (the
 * request, then the repair or sweeper after a crash) stores it once.
 */
export function deliveryId(eventId: string, endpointId: Types.ObjectId | string): Types.ObjectId {
  return new Types.ObjectId(
    createHash('sha256')
      .update(`delivery:${eventId}:${String(endpointId)}`)
      .digest()
      .subarray(0, 12),
  );
}

/** An event's public id from the audit record (or other source key) that reports it: `evt_` + 24 hex. */
export function eventIdFor(sourceKey: string): string {
  if (/^[0-9a-f]{24}$/.test(sourceKey)) return `evt_${sourceKey}`;
  return `evt_${createHash('sha256').update(sourceKey).digest('hex').slice(0, 24)}`;
}
