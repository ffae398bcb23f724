import { NotFoundException } from '@nestjs/common';
import { ConflictError, RateLimitedError, ValidationError } from './domain-errors';
import { generationOf, toErrorResponse } from './error-response';

describe('generationOf', () => {
  it.each([
    ['/v1/vendors', 'v1'],
    ['/v1/authenticate', 'v1'],
    ['/health', 'v1'],
    ['/webhooks/shopify', 'v1'],
    ['/v2/vendors?first=2', 'v2'],
    ['/authenticate', 'v2'],
    ['/refresh-token', 'v2'],
    ['/orders?first=1', 'v2'],
  ])('%s is %s', (url, gen) => expect(generationOf(url)).toBe(gen));
});

describe('toErrorResponse', () => {
  it('renders a v1 conflict with its extra fields at top level', () => {
    const res = toErrorResponse(
      new ConflictError('Vendor already exists', { vendorName: 'acme' }),
      '/v1/vendors',
    );
    expect(res).toEqual({
      status: 409,
      headers: {},
      body: { error: 'Vendor already exists', vendorName: 'acme' },
    });
  });

  it('renders a V2 validation error with code and details', () => {
    const res = toErrorResponse(
      new ValidationError('first must be at most 100', { fields: { first: ['max'] } }),
      '/v2/users',
    );
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      success: false,
      error: {
        message: 'first must be at most 100',
        code: 'VALIDATION_ERROR',
        details: { fields: { first: ['max'] } },
      },
    });
  });

  it('carries Retry-After for rate limits', () => {
    const res = toErrorResponse(new RateLimitedError(60), '/v2/vendor/authenticate');
    expect(res.status).toBe(429);
    expect(res.headers).toEqual({ 'retry-after': '60' });
  });

  it('maps fastify parser errors without leaking their text', () => {
    const err = Object.assign(new Error('Unexpected token } in JSON at position 3'), {
      code: 'FST_ERR_CTP_INVALID_JSON_BODY',
      statusCode: 400,
    });
    expect(toErrorResponse(err, '/v1/vendors')).toEqual({
      status: 400,
      headers: {},
      body: { error: 'Malformed JSON body' },
    });
    const big = Object.assign(new Error('too large'), {
      code: 'FST_ERR_CTP_BODY_TOO_LARGE',
      statusCode: 413,
    });
    expect(toErrorResponse(big, '/v2/users').body).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
  });

  it('maps unknown routes, cast errors and duplicate keys', () => {
    expect(toErrorResponse(new NotFoundException('Cannot GET /nope'), '/nope').body).toEqual({
      error: 'Route not found',
    });
    expect(
      toErrorResponse(Object.assign(new Error('Cast to ObjectId failed'), { name: 'CastError' }), '/v1/x')
        .status,
    ).toBe(404);
    expect(
      toErrorResponse(
        Object.assign(new Error('E11000 dup'), { name: 'MongoServerError', code: 11000 }),
        '/v1/x',
      ).status,
    ).toBe(409);
  });

  it('hides internals of anything else behind an errorId', () => {
    const res = toErrorResponse(new TypeError('cannot read x of undefined at /src/secret.ts'), '/v2/orders');
    expect(res.status).toBe(500);
    expect(res.errorId).toMatch(/^[0-9a-f-]{36}$/);
    expect(res.body).toEqual({
      success: false,
      error: { message: expect.any(String), code: 'INTERNAL_SERVER_ERROR', errorId: res.errorId },
    });
    expect(JSON.stringify(res.body)).not.toMatch(/secret|undefined/);
    expect(toErrorResponse(new Error('boom'), '/v1/vendors').body).toEqual({
      error: expect.any(String),
      errorId: expect.any(String),
    });
  });

  it('maps a FerretDB unique violation (code 1) like a duplicate key, and nothing else with code 1', () => {
    const unique = Object.assign(new Error('UNIQUE constraint failed: vendors.shopId, vendors.vendorName'), {
      name: 'MongoServerError',
      code: 1,
    });
    expect(toErrorResponse(unique, '/v2/vendors/1').status).toBe(409);
    const other = Object.assign(new Error('something else'), { name: 'MongoServerError', code: 1 });
    expect(toErrorResponse(other, '/v2/vendors/1').status).toBe(500);
  });
});
