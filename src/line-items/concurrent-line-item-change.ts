/** A concurrent writer changed a line item between our read and our write: the job retries from a fresh read. */
export class ConcurrentLineItemChange extends Error {}
