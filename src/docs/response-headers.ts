import type {
  HeaderObject,
  OpenAPIObject,
  ResponseObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { operationsOf } from './operations';

const ref = (name: string) => ({ $ref: `#/components/headers/${name}` });

/** Headers every answer can carry, whatever the route (app.factory.ts: CORS, request ids). */
const COMMON_HEADERS: Record<string, HeaderObject> = {
  'Access-Control-Allow-Origin': {
    description:
      'Only when CORS_ORIGINS is configured and the request’s `Origin` is allowed: that origin, or `*` ' +
      'when any origin is. Browsers refuse a cross-origin answer without it.',
    required: false,
    schema: { type: 'string', maxLength: 2048 },
  },
  'X-Request-Id': {
    description: 'The request id under which the request is logged (a sane incoming `x-request-id` is kept)',
    required: true,
    schema: { type: 'string', maxLength: 128 },
  },
};

/** Every response of every operation documents the headers any answer carries. */
export function documentResponseHeaders(doc: OpenAPIObject): void {
  doc.components = { ...doc.components, headers: { ...doc.components?.headers, ...COMMON_HEADERS } };
  for (const { op } of operationsOf(doc)) {
    for (const response of Object.values(op.responses) as ResponseObject[]) {
      const common = Object.fromEntries(Object.keys(COMMON_HEADERS).map((name) => [name, ref(name)]));
      response.headers = { ...common, ...response.headers };
    }
  }
}
