import type { OpenAPIObject, OperationObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';

import { ALIAS_IDS } from '../common/http/openapi-keys';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

export interface Operation {
  path: string;
  method: (typeof METHODS)[number];
  op: OperationObject;
}

export function operationsOf(doc: OpenAPIObject): Operation[] {
  return Object.entries(doc.paths).flatMap(([path, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ path, method, op: item[method]! })),
  );
}

/** camelCase, a verb first (`listOrders`, `getVendor`): stable names for generated clients. */
const OPERATION_ID = /^[a-z]+[A-Z][A-Za-z0-9]*$/;

/**
 * Settles each operation's id (path aliases) and refuses a document whose ids a client generator
 * cannot use: missing (Nest's `Controller_method` fallback), not camelCase, or repeated.
 */
export function settleOperationIds(doc: OpenAPIObject): void {
  const seen = new Map<string, string>();
  const problems: string[] = [];
  for (const { path, method, op } of operationsOf(doc)) {
    const extensions = op as unknown as Record<string, unknown>;
    const byPath = extensions[ALIAS_IDS] as Record<string, string> | undefined;
    if (byPath) {
      if (!byPath[path])
        problems.push(`${method.toUpperCase()} ${path}: no id for this path in ${ALIAS_IDS}`);
      op.operationId = byPath[path];
      delete extensions[ALIAS_IDS];
    }
    const where = `${method.toUpperCase()} ${path}`;
    const id = op.operationId ?? '';
    if (!OPERATION_ID.test(id)) problems.push(`${where}: operationId "${id}" is not a camelCase verb phrase`);
    else if (seen.has(id)) problems.push(`${where}: operationId "${id}" is also ${seen.get(id)}`);
    seen.set(id, where);
  }
  if (problems.length) {
    throw new Error(
      `OpenAPI operationIds (set them with @ApiOperation({ operationId })):\n  ${problems.join('\n  ')}`,
    );
  }
}

/**
 * Operations without a credential guard are public (sign-in, the HMAC-signed webhook, health):
 * `security: []` says so explicitly, so no tool assumes a default.
 */
export function markPublicOperations(doc: OpenAPIObject): void {
  for (const { op } of operationsOf(doc)) if (!op.security) op.security = [];
}
