import { NotFoundException } from '@nestjs/common';
import { ConflictError, RateLimitedError, ValidationError } from './domain-errors';
import { TimeoutError } from '../async/timeout';
import { generationOf, toErrorResponse } from './error-response';
import { isServiceUnavailable } from './unavailable';

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
    ['/payout-method', 'v2'],
    ['/settings/api-keys', 'v2'],
    ['/vendors/me/tax-profile', 'v2'],
    ['/webhooks/stripe', 'v1'],
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

  it('maps only code 11000 to a duplicate key: code 1 is not one, whatever its text (FerretDB is not supported)', () => {
    const duplicate = Object.assign(new Error('E11000 duplicate key error collection: vendors'), {
      name: 'MongoServerError',
      code: 11000,
    });
    expect(toErrorResponse(duplicate, '/v2/vendors/1').status).toBe(409);
    const unique = Object.assign(new Error('UNIQUE constraint failed: vendors.shopId, vendors.vendorName'), {
      name: 'MongoServerError',
      code: 1,
    });
    expect(toErrorResponse(unique, '/v2/vendors/1').status).toBe(500);
    const other = Object.assign(new Error('something else'), { name: 'MongoServerError', code: 1 });
    expect(toErrorResponse(other, '/v2/vendors/1').status).toBe(500);
  });
});

describe('unreachable MongoDB or Redis → 503 with Retry-After', () => {
  const named = (name: string, message = 'x') => Object.assign(new Error(message), { name });
  it.each([
    [
      'the driver cannot select a server',
      named('MongoServerSelectionError', 'connect ECONNREFUSED 127.0.0.1:27017'),
    ],
    ['mongoose cannot select a server', named('MongooseServerSelectionError')],
    [
      'the connection dropped mid-command',
      named('MongoNetworkError', 'connection 3 to 127.0.0.1:27017 closed'),
    ],
    ['the pool was cleared', named('MongoPoolClearedError')],
    [
      'ioredis without an offline queue',
      new Error("Stream isn't writeable and enableOfflineQueue options is false"),
    ],
    ['ioredis lost the connection', new Error('Connection is closed.')],
    [
      'ioredis gave up retrying',
      named('MaxRetriesPerRequestError', 'Reached the max retries per request limit'),
    ],
    ['our own timeout on Redis', new TimeoutError('the ingestion queue (Redis)', 1500)],
    [
      'a wrapped refused connection',
      Object.assign(new Error('wrapped'), { cause: { code: 'ECONNREFUSED' } }),
    ],
  ])('%s', (_name, err) => {
    expect(isServiceUnavailable(err)).toBe(true);
    const v1 = toErrorResponse(err, '/v1/vendors');
    expect(v1).toMatchObject({ status: 503, headers: { 'retry-after': '5' }, unavailable: true });
    expect(v1.body).toEqual({ error: expect.any(String), errorId: v1.errorId });
    const v2 = toErrorResponse(err, '/v2/vendors');
    expect(v2.body).toEqual({
      success: false,
      error: { message: expect.any(String), code: 'SERVICE_UNAVAILABLE', errorId: v2.errorId },
    });
    expect(JSON.stringify(v2.body)).not.toContain('127.0.0.1');
  });

  it('other errors stay 500 (or their own status)', () => {
    expect(isServiceUnavailable(new Error('boom'))).toBe(false);
    expect(isServiceUnavailable(named('MongoServerError', 'E11000 duplicate key'))).toBe(false);
    expect(toErrorResponse(new Error('boom'), '/v1/vendors').status).toBe(500);
  });
});
