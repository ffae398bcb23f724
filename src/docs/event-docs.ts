import type { OpenAPIObject } from '@nestjs/swagger';
import { EVENT_CATALOGUE, EVENT_TYPES, type EventType } from '../event-port/event-catalogue';

type Schema = Record<string, unknown>;

/** `vendor.created` → `VendorCreatedEvent`, `payout_batch.paid` → `PayoutBatchPaidEvent`. */
export function eventSchemaName(type: EventType): string {
  return `${type
    .split(/[._]/)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('')}Event`;
}

const DELETED: Schema = {
  type: 'object',
  description: 'What the DELETE answered: the id and `deleted: true`',
  required: ['_id', 'deleted'],
  properties: {
    _id: { type: 'string', example: '6750a1b2c3d4e5f6a7b8c9d0' },
    deleted: { type: 'boolean', enum: [true] },
  },
};

/** `data.object` of a type: the DTO schema of the resource where the documents have one. */
function objectSchema(type: EventType, schemas: Record<string, unknown>): Schema {
  const spec = EVENT_CATALOGUE[type];
  if (spec.object === 'DeletedObjectDto') return DELETED;
  if (schemas[spec.object]) return { $ref: `#/components/schemas/${spec.object}` };
  return {
    type: 'object',
    additionalProperties: true,
    description: spec.emitted
      ? 'The object this event reports'
      : 'The public representation of the object (its schema lands with the feature that emits this event)',
  };
}

/**
 * One schema per event type (`…Event`), added to the full document's components before the two
 * documents are cut from it, so both carry them (data.object is always the v1 representation).
 */
export function addEventSchemas(full: OpenAPIObject): void {
  const schemas = (full.components ??= {}).schemas ?? (full.components.schemas = {});
  for (const type of EVENT_TYPES) {
    const spec = EVENT_CATALOGUE[type];
    schemas[eventSchemaName(type)] = {
      type: 'object',
      description: `\`${type}\`: ${spec.description}${spec.emitted ? '' : ' (Documented now; not emitted by this version yet.)'}`,
      required: ['id', 'type', 'createdAt', 'shopId', 'apiVersion', 'data'],
      properties: {
        id: {
          type: 'string',
          pattern: '^evt_[0-9a-f]{24}$',
          description: 'Also the `webhook-id` header',
          example: 'evt_6750a1b2c3d4e5f6a7b8c9d0',
        },
        type: { type: 'string', enum: [type] },
        createdAt: { type: 'string', format: 'date-time' },
        shopId: { type: 'string', example: '6740b9f1c2a4e15b3c9d0a11' },
        apiVersion: { type: 'string', enum: ['v1'], description: 'The API generation of `data.object`' },
        data: {
          type: 'object',
          required: ['object'],
          properties: { object: objectSchema(type, schemas as Record<string, unknown>) },
        },
      },
    };
  }
}

/** Who may subscribe an endpoint to a type (issue 28): merchant-readable objects, or shop tokens only. */
function audience(type: EventType): string {
  return EVENT_CATALOGUE[type].merchant
    ? 'An endpoint configured with a merchant token may receive it.'
    : 'Shop token only: an endpoint configured with a merchant token never receives it (its `*` excludes it).';
}

/**
 * The catalogue as OpenAPI 3.0 allows it: `x-webhooks` (what OpenAPI 3.1 calls `webhooks`; Redoc
 * renders it as its own section), one POST per event type under the `Events` tag, its body the
 * type's schema, with the Standard Webhooks headers.
 */
export function documentEventWebhooks(doc: OpenAPIObject): void {
  const header = (description: string, example: string) => ({
    required: true,
    description,
    schema: { type: 'string', example },
  });
  const hooks: Record<string, unknown> = {};
  for (const type of EVENT_TYPES) {
    hooks[type] = {
      post: {
        tags: ['Events'],
        operationId: `event${eventSchemaName(type).replace(/Event$/, '')}`,
        summary: `${type}${EVENT_CATALOGUE[type].emitted ? '' : ' (not emitted yet)'}`,
        description: `${EVENT_CATALOGUE[type].description} Sent by this service to a registered endpoint; verify the signature with the endpoint's secret. ${audience(type)}`,
        security: [],
        parameters: [
          {
            in: 'header',
            name: 'webhook-id',
            ...header('The event id; the same on every retry and replay', 'evt_6750a1b2c3d4e5f6a7b8c9d0'),
          },
          {
            in: 'header',
            name: 'webhook-timestamp',
            ...header('Unix seconds when this attempt was sent', '1764064800'),
          },
          {
            in: 'header',
            name: 'webhook-signature',
            ...header(
              '`v1,<base64 HMAC-SHA256 of "id.timestamp.body">`, space-separated: two during a secret rotation',
              'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
            ),
          },
        ],
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: { $ref: `#/components/schemas/${eventSchemaName(type)}` } },
          },
        },
        responses: {
          '200': { description: 'Any 2xx within 15 s acknowledges the delivery' },
          '410': { description: 'Gone: the endpoint is disabled at once' },
          '429': { description: 'Retried no sooner than `Retry-After` (also for 503)' },
        },
      },
    };
  }
  (doc as unknown as Record<string, unknown>)['x-webhooks'] = hooks;
}
