import type { OpenAPIObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { errorExample } from '../common/http/error.dto';
import { documentRequiredScopes } from './required-scopes';

function doc(): OpenAPIObject {
  const forbidden = () => ({
    description: 'Only vendor or shop tokens may call this endpoint',
    content: {
      'application/json': {
        example: errorExample(
          'v2',
          403,
          'A merchant token cannot be used on this endpoint; it needs a vendor or shop token',
        ),
      },
    },
  });
  return {
    openapi: '3.0.0',
    info: { title: 't', version: '1' },
    paths: {
      '/v2/payouts': {
        get: {
          description: 'Payout rows.',
          'x-required-scope': 'payouts:read',
          responses: { '200': { description: 'ok' }, '403': forbidden() },
        } as never,
      },
      '/v2/vendors': { get: { responses: { '403': forbidden() } } },
    },
  };
}

describe('documentRequiredScopes', () => {
  it('names the scope in the description and shows the "Insufficient scope" 403 of a scoped operation', () => {
    const d = doc();
    documentRequiredScopes(d, 'v2');
    const op = d.paths['/v2/payouts'].get!;
    expect(op.description).toBe('Payout rows. Requires scope `payouts:read` for vendor tokens.');
    const res = op.responses['403'] as { description: string; content: Record<string, { example: unknown }> };
    expect(res.content['application/json'].example).toEqual({
      success: false,
      error: { message: 'Insufficient scope', code: 'FORBIDDEN', details: { requiredScope: 'payouts:read' } },
    });
    expect(res.description).toContain('A merchant token cannot be used on this endpoint');
    expect(res.description).toContain('without scope `payouts:read`');
  });

  it('leaves operations without a required scope as they were', () => {
    const d = doc();
    const before = JSON.stringify(d.paths['/v2/vendors']);
    documentRequiredScopes(d, 'v2');
    expect(JSON.stringify(d.paths['/v2/vendors'])).toBe(before);
  });
});
