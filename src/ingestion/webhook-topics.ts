/** The store-platform webhook topics the service processes (DESIGN §7); others are acknowledged and ignored. */
export const SUPPORTED_TOPICS = [
  'orders/create',
  'orders/updated',
  'orders/paid',
  'orders/cancelled',
  'refunds/create',
  'products/create',
  'products/update',
  'products/delete',
  'fulfillments/create',
  'fulfillments/update',
] as const;
export type WebhookTopic = (typeof SUPPORTED_TOPICS)[number];
