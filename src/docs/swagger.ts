import { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ACCESS_TOKEN_SCHEME } from '../common/auth/auth.decorators';
import { generationOf } from '../common/errors';

const V1_DESCRIPTION = `Marketplace administration API, generation 1.

Authenticate with \`POST /v1/authenticate\` (shop API key + shop domain) and send the returned JWT in the
\`x-access-token\` header (no Bearer prefix). Lists page with \`limit\` (1–250, default 100) and \`offset\`
and answer \`nextOffset\` (null on the last page). Errors answer \`{error: string}\`.`;

const V2_DESCRIPTION = `Marketplace administration API, generation 2 — **preview (alpha)**: breaking changes may occur.

Merchant tokens come from \`POST /authenticate\` with a merchant key (\`mk_live_…\`); vendor tokens from
\`POST /v2/vendor/authenticate\`. Send them in \`x-access-token\`. Lists use Relay-style cursors
(\`first\`/\`after\`, \`last\`/\`before\`, 1–100, default first=20). Successes answer \`{success: true, data}\`,
errors \`{success: false, error: {message, code, details?, errorId?}}\`.`;

function base(title: string, version: string, description: string): OpenAPIObject {
  return new DocumentBuilder()
    .setTitle(title)
    .setVersion(version)
    .setDescription(description)
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'x-access-token',
        description: 'JWT from an authenticate endpoint',
      },
      ACCESS_TOKEN_SCHEME,
    )
    .build() as OpenAPIObject;
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
  return seen;
}

function subset(full: OpenAPIObject, head: OpenAPIObject, keep: (path: string) => boolean): OpenAPIObject {
  const paths = Object.fromEntries(Object.entries(full.paths).filter(([p]) => keep(p)));
  const doc: OpenAPIObject = { ...head, paths, components: { ...full.components, ...head.components } };
  const used = referencedSchemas(doc);
  const schemas = Object.fromEntries(
    Object.entries(full.components?.schemas ?? {})
      .filter(([name]) => used.has(name))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
  doc.components = { ...doc.components, schemas };
  const tags = new Set(
    Object.values(paths).flatMap((item) =>
      Object.values(item as Record<string, { tags?: string[] }>).flatMap((op) => op.tags ?? []),
    ),
  );
  doc.tags = [...tags].sort().map((name) => ({ name }));
  return doc;
}

/** The two published documents: v1, and V2 (version 2.0.0, preview). Unprefixed merchant/vendor routes belong to V2. */
export function buildDocuments(app: INestApplication): { v1: OpenAPIObject; v2: OpenAPIObject } {
  const full = SwaggerModule.createDocument(app, base('Marketplace Admin API', '1.0.0', ''), {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  });
  const v1 = subset(
    full,
    base('Marketplace Admin API v1', '1.0.0', V1_DESCRIPTION),
    (p) => generationOf(p) === 'v1',
  );
  const v2 = subset(
    full,
    base('Marketplace Admin API V2 (preview)', '2.0.0', V2_DESCRIPTION),
    (p) => generationOf(p) === 'v2',
  );
  (v2.info as unknown as Record<string, unknown>)['x-preview'] = true;
  return { v1, v2 };
}

export function setupSwagger(app: INestApplication): void {
  const { v1, v2 } = buildDocuments(app);
  const ui = { swaggerOptions: { persistAuthorization: true } };
  SwaggerModule.setup('docs/v1', app, v1, {
    ...ui,
    jsonDocumentUrl: 'docs/v1.json',
    yamlDocumentUrl: 'docs/v1.yaml',
  });
  SwaggerModule.setup('docs/v2', app, v2, {
    ...ui,
    jsonDocumentUrl: 'docs/v2.json',
    yamlDocumentUrl: 'docs/v2.yaml',
  });
}
