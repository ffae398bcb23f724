import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { ServerObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { SECURITY_SCHEMES } from '../common/auth/auth.decorators';
import { generationOf } from '../common/errors';
import { V1ServerErrorDto, V2ServerErrorDto } from '../common/http/error.dto';
import { HttpConfig, httpConfig } from '../config/configuration';
import { documentErrors } from './error-responses';
import { addEventSchemas, documentEventWebhooks } from './event-docs';
import { OrderReceivedDto, RefundRecordedDto } from '../events/dto/event-objects.dto';
import { markPublicOperations, operationsOf, settleOperationIds } from './operations';
import { documentRequiredScopes } from './required-scopes';
import { documentResponseHeaders } from './response-headers';
import { orderedTags } from './tags';
import { groupVendorSurface, tagGroups } from './vendor-surface';

const V1_DESCRIPTION = `Marketplace administration API, generation 1.

Authenticate with \`POST /v1/authenticate\` (shop API key + shop domain) and send the returned JWT in the
\`x-access-token\` header (no Bearer prefix). Lists page with \`limit\` (1–250, default 100) and \`offset\`
and answer \`nextOffset\` (null on the last page). Errors answer \`{error: string}\` (5xx add \`errorId\`).`;

const V2_DESCRIPTION = `Marketplace administration API, generation 2 — **preview (alpha)**: breaking changes may occur.

Merchant tokens come from \`POST /authenticate\` with a merchant key (\`mk_live_…\`); vendor tokens from
\`POST /v2/vendor/authenticate\` (a portal user) or \`POST /authenticate\` with a vendor API key (\`vk_live_…\`). Send them in \`x-access-token\`. Lists use Relay-style cursors
(\`first\`/\`after\`, \`last\`/\`before\`, 1–100, default first=20). Successes answer \`{success: true, data}\`,
errors \`{success: false, error: {message, code, details?, errorId?}}\`.`;

const TOKEN_DESCRIPTIONS: Record<keyof typeof SECURITY_SCHEMES, string> = {
  shop: 'Shop token (JWT, 24 h) from `POST /v1/authenticate`; all of v1, V2 order reads and V2 administration.',
  merchant: 'Merchant token (JWT, 14 days) from `POST /authenticate` with a merchant key; V2 administration.',
  vendor:
    'Vendor token (JWT, 24 h): a portal user’s from `POST /v2/vendor/authenticate`, or a vendor API key’s ' +
    '(`vk_live_…`, created by the shop or a portal user) from `POST /authenticate`; renewable at ' +
    '`POST /refresh-token`. It reaches only its vendor’s data, within its scopes (`orders:read`, `orders:write`, ' +
    '`products:read`, `fulfillments:read`, `fulfillments:write`, `payouts:read`): a key’s scopes, or the ' +
    'user’s permissions, checked on every request. An operation needing a scope names it in `x-required-scope`; ' +
    'without it → 403 "Insufficient scope".',
};

function base(title: string, version: string, description: string): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle(title)
    .setVersion(version)
    .setDescription(description)
    .setLicense('Proprietary', '');
  for (const [kind, scheme] of Object.entries(SECURITY_SCHEMES) as [
    keyof typeof SECURITY_SCHEMES,
    string,
  ][]) {
    builder.addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'x-access-token',
        description: `${TOKEN_DESCRIPTIONS[kind]} Sent in the \`x-access-token\` header, without a Bearer prefix.`,
      },
      scheme,
    );
  }
  const doc = builder.build() as OpenAPIObject;
  delete (doc.info.license as { url?: string }).url;
  return doc;
}

/**
 * Where the API is served: relative to the page that loaded the document (Swagger UI, a proxy's
 * prefix-free mount), then the public address of the deployment when PUBLIC_URL is set.
 */
export function documentServers(publicUrl: string | undefined): ServerObject[] {
  const servers: ServerObject[] = [
    { url: '/', description: 'This deployment, relative to the document (local, staging or production)' },
  ];
  if (publicUrl)
    servers.push({ url: publicUrl, description: 'Public address of this deployment (PUBLIC_URL)' });
  return servers.map((s) => ({ ...s, 'x-internal': false }) as ServerObject);
}

/** Collects every `#/components/schemas/X` that `node` refers to, following references transitively. */
function referencedSchemas(doc: OpenAPIObject): Set<string> {
  const schemas = (doc.components?.schemas ?? {}) as Record<string, unknown>;
  const seen = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (!node || typeof node !== 'object') return;
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')) {
        const name = v.slice('#/components/schemas/'.length);
        if (!seen.has(name)) {
          seen.add(name);
          visit(schemas[name]);
        }
      } else visit(v);
    }
  };
  visit(doc.paths);
  visit((doc as unknown as Record<string, unknown>)['x-webhooks']);
  return seen;
}

function subset(
  full: OpenAPIObject,
  head: OpenAPIObject,
  api: 'v1' | 'v2',
  servers: ServerObject[],
): OpenAPIObject {
  const paths = Object.fromEntries(Object.entries(full.paths).filter(([p]) => generationOf(p) === api));
  const doc: OpenAPIObject = {
    ...head,
    servers,
    paths: structuredClone(paths),
    components: { ...full.components, ...head.components },
  };
  settleOperationIds(doc);
  markPublicOperations(doc);
  documentErrors(doc, api);
  documentRequiredScopes(doc, api);
  documentResponseHeaders(doc);
  documentEventWebhooks(doc);
  groupVendorSurface(doc);
  const used = referencedSchemas(doc);
  const schemas = Object.fromEntries(
    Object.entries(full.components?.schemas ?? {})
      .filter(([name]) => used.has(name))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  const schemesUsed = new Set(
    operationsOf(doc).flatMap(({ op }) => (op.security ?? []).flatMap(Object.keys)),
  );
  const securitySchemes = Object.fromEntries(
    Object.entries(head.components?.securitySchemes ?? {}).filter(([name]) => schemesUsed.has(name)),
  );
  doc.components = { ...doc.components, schemas, securitySchemes };
  doc.tags = orderedTags(new Set([...operationsOf(doc).flatMap(({ op }) => op.tags ?? []), 'Events']));
  (doc as unknown as Record<string, unknown>)['x-tagGroups'] = tagGroups(doc.tags);
  return doc;
}

/**
 * The two published documents: v1, and V2 (version 2.0.0, preview). Unprefixed merchant/vendor
 * routes belong to V2. `publicUrl` adds the deployment's public address to `servers`; the
 * committed copies in openapi/ are written without one.
 */
export function buildDocuments(
  app: INestApplication,
  publicUrl?: string,
): { v1: OpenAPIObject; v2: OpenAPIObject } {
  const full = SwaggerModule.createDocument(app, base('Marketplace Admin API', '1.0.0', ''), {
    extraModels: [V1ServerErrorDto, V2ServerErrorDto, OrderReceivedDto, RefundRecordedDto],
  });
  addEventSchemas(full);
  const servers = documentServers(publicUrl);
  const v1 = subset(full, base('Marketplace Admin API v1', '1.0.0', V1_DESCRIPTION), 'v1', servers);
  const v2 = subset(full, base('Marketplace Admin API V2 (preview)', '2.0.0', V2_DESCRIPTION), 'v2', servers);
  (v2.info as unknown as Record<string, unknown>)['x-preview'] = true;
  return { v1, v2 };
}

export function setupSwagger(app: INestApplication): void {
  const { v1, v2 } = buildDocuments(app, app.get<HttpConfig>(httpConfig.KEY).publicUrl);
  const ui = { swaggerOptions: { persistAuthorization: true } };
  SwaggerModule.setup('docs/v1', app, v1, {
    ...ui,
    customSiteTitle: 'Marketplace Admin API v1 — Swagger UI',
    jsonDocumentUrl: 'docs/v1.json',
    yamlDocumentUrl: 'docs/v1.yaml',
  });
  SwaggerModule.setup('docs/v2', app, v2, {
    ...ui,
    customSiteTitle: 'Marketplace Admin API V2 (preview) — Swagger UI',
    jsonDocumentUrl: 'docs/v2.json',
    yamlDocumentUrl: 'docs/v2.yaml',
  });
}
