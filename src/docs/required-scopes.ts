import type { OpenAPIObject, ResponseObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { REQUIRED_SCOPE_EXTENSION } from '../common/auth/scopes';
import { errorExample } from '../common/http/error.dto';
import { operationsOf } from './operations';

/**
 * Operations a vendor token needs a scope for (`x-required-scope`, set by @RequireScope): the
 * description says so, and the 403 shows the "Insufficient scope" answer (its description keeps the
 * wrong-credential one).
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
    // One example per media type (the lint gate asks for `example`; OpenAPI forbids it beside
    // `examples`): the scope refusal, the answer particular to this operation; the wrong-kind
    // refusal stays in the description.
    const wrongKind = (media.example as { error?: { message?: string } | string } | undefined)?.error;
    const wrongKindMessage = typeof wrongKind === 'string' ? wrongKind : wrongKind?.message;
    media.example = errorExample(api, 403, 'Insufficient scope', { requiredScope: scope });
    forbidden.description =
      `${forbidden.description ?? 'Forbidden'}${wrongKindMessage ? ` ("${wrongKindMessage}")` : ''}; ` +
      `a vendor token without scope \`${scope}\` ("Insufficient scope", \`details.requiredScope\`)`;
  }
}
