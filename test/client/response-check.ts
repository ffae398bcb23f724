import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { Middleware } from 'openapi-fetch';

/**
 * Checks every answer the generated client receives against the committed OpenAPI document it was
 * generated from: the status is documented for the operation, the JSON body validates against that
 * status's schema (ajv, OpenAPI 3.0 `nullable` included), and every header the document marks
 * required is there. A mismatch throws, failing the flow at the request that broke the contract.
 */

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function child(node: unknown, ...keys: string[]): unknown {
  let at = node;
  for (const key of keys) at = isRecord(at) ? at[key] : undefined;
  return at;
}

/**
 * OpenAPI 3.0 schema keywords as JSON Schema: `nullable: true` is the schema without it, or null
 * (as Schemathesis reads it; ajv's own `nullable` only widens `type`, so next to an `allOf: [$ref]`
 * it would still refuse null), and boolean exclusive bounds become numeric ones.
 */
function toJsonSchema(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(toJsonSchema);
  if (!isRecord(node)) return node;
  const converted = Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => key !== 'nullable')
      .map(([key, value]) => [key, toJsonSchema(value)]),
  );
  // 3.0's boolean exclusive bounds are JSON Schema's numeric ones.
  for (const [exclusive, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (converted[exclusive] === true) {
      converted[exclusive] = converted[bound];
      delete converted[bound];
    } else if (converted[exclusive] === false) delete converted[exclusive];
  }
  return node.nullable === true ? { anyOf: [converted, { type: 'null' }] } : converted;
}

export class ContractViolation extends Error {}

export class ResponseChecker {
  private readonly doc: Json;
  private readonly definitions: Json;
  private readonly ajv = new Ajv({ strict: false, allErrors: true });
  private readonly validators = new Map<string, ValidateFunction>();
  /** Every `METHOD path status` this checker has seen, for the flow's coverage report. */
  readonly seen = new Set<string>();

  constructor(document: 'v1' | 'v2') {
    // JSON Schema has `definitions` where OpenAPI has `components/schemas`: one rename makes every
    // $ref resolvable inside a response schema compiled on its own.
    const text = readFileSync(join(__dirname, '..', '..', 'openapi', `${document}.json`), 'utf8');
    const parsed = toJsonSchema(JSON.parse(text.replaceAll('#/components/schemas/', '#/definitions/')));
    if (!isRecord(parsed)) throw new Error(`openapi/${document}.json is not an object`);
    this.doc = parsed;
    const schemas = child(parsed, 'components', 'schemas');
    this.definitions = isRecord(schemas) ? schemas : {};
    addFormats(this.ajv);
  }

  /** The openapi-fetch middleware that checks each answer (the body is read from a clone). */
  middleware(): Middleware {
    return {
      onResponse: async ({ request, response, schemaPath }) => {
        await this.check(request.method.toLowerCase(), schemaPath, response.clone());
        return undefined;
      },
    };
  }

  private async check(method: string, path: string, response: Response): Promise<void> {
    const where = `${method.toUpperCase()} ${path} ${response.status}`;
    this.seen.add(where);
    const documented = child(this.doc, 'paths', path, method, 'responses', String(response.status));
    if (!isRecord(documented)) throw new ContractViolation(`${where}: status not documented`);
    const headers = child(documented, 'headers');
    for (const [name, header] of Object.entries(isRecord(headers) ? headers : {})) {
      const required = child(header, 'required') === true || this.componentHeaderRequired(header);
      if (required && !response.headers.has(name)) {
        throw new ContractViolation(`${where}: documented required header ${name} missing`);
      }
    }
    const schema = child(documented, 'content', 'application/json', 'schema');
    if (!isRecord(schema)) return;
    const body: unknown = await response.json();
    const validate = this.validator(where, schema);
    if (!validate(body)) {
      const errors = this.ajv.errorsText(validate.errors, { dataVar: 'body' });
      throw new ContractViolation(`${where}: body does not match its schema: ${errors}`);
    }
  }

  private componentHeaderRequired(header: unknown): boolean {
    const ref = child(header, '$ref');
    if (typeof ref !== 'string') return false;
    return child(this.doc, 'components', 'headers', ref.split('/').pop() ?? '', 'required') === true;
  }

  private validator(key: string, schema: Json): ValidateFunction {
    let validate = this.validators.get(key);
    if (!validate) {
      validate = this.ajv.compile({ ...schema, definitions: this.definitions });
      this.validators.set(key, validate);
    }
    return validate;
  }
}
