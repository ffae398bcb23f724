import type {
  OpenAPIObject,
  ParameterObject,
  ResponseObject,
  SchemaObject,
} from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ERROR_DESCRIPTIONS } from '../common/http/api-errors.decorator';
import { errorExample } from '../common/http/error.dto';
import { Operation, operationsOf } from './operations';

type Api = 'v1' | 'v2';

const SERVER_ERROR_SCHEMA: Record<Api, string> = {
  v1: '#/components/schemas/V1ServerErrorDto',
  v2: '#/components/schemas/V2ServerErrorDto',
};

const CLIENT_ERROR_SCHEMA: Record<Api, string> = {
  v1: '#/components/schemas/V1ErrorDto',
  v2: '#/components/schemas/V2ErrorDto',
};

/** A 422 example as class-validator words it for the first thing this operation validates. */
function validationMessage({ op, method }: Operation, doc: OpenAPIObject): [string, string] {
  const query = ((op.parameters ?? []) as ParameterObject[]).filter((p) => p.in === 'query');
  const paging = query.find((p) => ['limit', 'first', 'page'].includes(p.name));
  if (paging) {
    const max = (paging.schema as SchemaObject | undefined)?.maximum;
    return max === undefined
      ? [paging.name, `${paging.name} must not be less than 1`]
      : [paging.name, `${paging.name} must not be greater than ${max}`];
  }
  const choice = query.find((p) => (p.schema as SchemaObject | undefined)?.enum);
  if (choice) {
    const values = ((choice.schema as SchemaObject).enum ?? []).join(', ');
    return [choice.name, `${choice.name} must be one of the following values: ${values}`];
  }
  if (method !== 'get') {
    const ref = (op.requestBody as { content?: Record<string, { schema?: { $ref?: string } }> } | undefined)
      ?.content?.['application/json']?.schema?.$ref;
    const schema = ref ? doc.components?.schemas?.[ref.split('/').pop()!] : undefined;
    const field = (schema as SchemaObject | undefined)?.required?.[0];
    if (field) return [field, `${field} should not be empty`];
  }
  return ['body', 'property unexpected should not exist'];
}

/** The example of an error answer the operation's own decorators did not word. */
function defaultExample(api: Api, status: number, operation: Operation, doc: OpenAPIObject): unknown {
  const example = (message: string, extra?: Record<string, unknown>) =>
    errorExample(api, status, message, extra);
  switch (status) {
    case 400:
      return example('Malformed JSON body');
    case 401:
      return example(operation.op.security?.length ? 'Missing x-access-token header' : 'Invalid credentials');
    case 403:
      return example('This credential is not allowed to use this endpoint');
    case 404:
      return example('Resource not found');
    case 409:
      return example('The resource changed concurrently; read it again and retry');
    case 413:
      return example('Request body is larger than 1 MB');
    case 415:
      return example('Unsupported Content-Type; send application/json');
    case 422: {
      const [field, message] = validationMessage(operation, doc);
      return api === 'v1' ? example(message) : example(message, { fields: { [field]: [message] } });
    }
    case 429:
      return example(
        'Too many attempts; try again later',
        api === 'v2' ? { retryAfterSeconds: 42 } : undefined,
      );
    case 503:
      return example('The service is temporarily unavailable; retry shortly');
    default:
      return example('An unexpected error occurred; quote the errorId when contacting support');
  }
}

/**
 * Every operation documents its 500 (`{error, errorId}` on v1, INTERNAL_SERVER_ERROR on V2: any
 * handler can fail unexpectedly), every operation with a body its 400 and 413, and every error
 * answer carries an example of its own status.
 */
export function documentErrors(doc: OpenAPIObject, api: Api): void {
  for (const operation of operationsOf(doc)) {
    const responses = operation.op.responses as Record<string, ResponseObject>;
    responses['500'] ??= {
      description: ERROR_DESCRIPTIONS[500],
      content: { 'application/json': { schema: { $ref: SERVER_ERROR_SCHEMA[api] } } },
    };
    // The body parser answers before any handler: every operation with a body can answer both.
    if (operation.op.requestBody) {
      for (const status of ['400', '413']) {
        responses[status] ??= {
          description: ERROR_DESCRIPTIONS[Number(status)],
          content: { 'application/json': { schema: { $ref: CLIENT_ERROR_SCHEMA[api] } } },
        };
      }
    }
    for (const [code, response] of Object.entries(responses)) {
      const status = Number(code);
      const media = response.content?.['application/json'];
      const schema = (media?.schema as { $ref?: string } | undefined)?.$ref ?? '';
      // Error bodies only: health's 503 answers its own readiness document.
      if (status < 400 || !media || !/(Error|Conflict)Dto$/.test(schema)) continue;
      if (media.example !== undefined || media.examples) continue;
      media.example = defaultExample(api, status, operation, doc);
    }
  }
}
