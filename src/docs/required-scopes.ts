import type { OpenAPIObject, ResponseObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { REQUIRED_SCOPE_EXTENSION } from '../common/auth/scopes';
import { errorExample } from '../common/http/error.dto';
import { operationsOf } from './operations';

/**
 * Operations a vendor token needs a scope for (`x-required-scope`, set by @RequireScope): the
 * description says so, and the 403 shows the "Insufficient scope" answer beside the wrong-credential one.
 */
export function documentRequiredScopes(doc: OpenAPIObject, api: 'v1' | 'v2'): void {
  for (const { op } of operationsOf(doc)) {
    const scope = (op as unknown as Record<string, unknown>)[REQUIRED_SCOPE_EXTENSION];
    if (typeof scope !== 'string') continue;
    const sentence = `Requires scope \`${scope}\` for vendor tokens.`;
    op.description = op.description ? `${op.description.trimEnd()} ${sentence}` : sentence;
    const forbidden = (op.responses as Record<string, ResponseObject | undefined>)['403'];
    const media = forbidden?.content?.['application/json'];
    if (!forbidden || !media) continue;
    const insufficient = {
      summary: 'A vendor token without the scope',
      value: errorExample(api, 403, 'Insufficient scope', { requiredScope: scope }),
    };
    const existing = media.examples ?? {};
    if (media.example !== undefined) {
      existing.wrongCredential = { summary: 'A credential of another kind', value: media.example };
      delete media.example;
    }
    media.examples = { ...existing, insufficientScope: insufficient };
    forbidden.description =
      `${forbidden.description ?? ''}; a vendor token without scope \`${scope}\``.replace(/^; /, '');
  }
}
