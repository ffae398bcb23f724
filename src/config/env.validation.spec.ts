import { validateEnv } from './env.validation';
import { queueProcessorsFor } from './process-role';

describe('validateEnv', () => {
  it('applies defaults for a development start', () => {
    const env = validateEnv({});
    expect(env).toMatchObject({
      NODE_ENV: 'development',
      PORT: 3000,
      LOG_LEVEL: 'info',
    });
    expect(env.QUEUE_PROCESSORS).toBeUndefined();
    expect(env.JWT_SECRET).toBeUndefined();
  });

  it('requires JWT_SECRET in production, naming the variable', () => {
    expect(() => validateEnv({ NODE_ENV: 'production' })).toThrow(/^Invalid configuration: JWT_SECRET /);
    expect(() => validateEnv({ NODE_ENV: 'production', JWT_SECRET: 'short' })).toThrow(
      /JWT_SECRET must be at least 32/,
    );
    expect(validateEnv({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) }).JWT_SECRET).toHaveLength(32);
  });

  it.each([
    ['PORT', 'abc', /PORT/],
    ['PORT', '70000', /PORT/],
    ['MONGODB_URI', 'http://x', /MONGODB_URI must be a mongodb/],
    ['REDIS_URL', 'localhost:6379', /REDIS_URL/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL/],
    ['NODE_ENV', 'staging', /NODE_ENV/],
    ['DATA_ENCRYPTION_KEY', 'abc', /DATA_ENCRYPTION_KEY/],
    ['LOG_FORMAT', 'xml', /LOG_FORMAT/],
    ['CORS_ORIGINS', 'admin.example.com', /CORS_ORIGINS must be \* or comma-separated origins/],
    ['CORS_ORIGINS', 'https://admin.example.com/app', /CORS_ORIGINS/],
    ['CORS_ORIGINS', 'https://a.example.com,,https://b.example.com', /CORS_ORIGINS/],
    ['CORS_ORIGINS', '*,https://a.example.com', /CORS_ORIGINS/],
  ])('rejects %s=%s', (name, value, message) => {
    expect(() => validateEnv({ [name]: value })).toThrow(message);
  });

  it('defaults and bounds of the inbox, sweeper, payout lease and ops listener settings', () => {
    expect(validateEnv({})).toMatchObject({
      MP_DATA_DIR: '.data',
      METRICS_HOST: '127.0.0.1',
      INBOX_REDRIVE_AFTER_SECONDS: 120,
      INBOX_RETENTION_DAYS: 30,
      SWEEP_EVERY_SECONDS: 60,
      PAYOUT_LEASE_SECONDS: 30,
    });
    expect(validateEnv({}).METRICS_PORT).toBeUndefined();
    expect(validateEnv({ METRICS_PORT: '0' }).METRICS_PORT).toBe(0);
    expect(() => validateEnv({ INBOX_RETENTION_DAYS: '2' })).toThrow(/INBOX_RETENTION_DAYS/);
    expect(() => validateEnv({ METRICS_PORT: 'x' })).toThrow(/METRICS_PORT/);
    expect(() => validateEnv({ PAYOUT_LEASE_SECONDS: '1' })).toThrow(/PAYOUT_LEASE_SECONDS/);
    expect(() => validateEnv({ SWEEP_EVERY_SECONDS: '0' })).toThrow(/SWEEP_EVERY_SECONDS/);
  });

  it('TRANSFER_LEASE_SECONDS: at least two 5 s provider tries and 5 s of slack (issue 28)', () => {
    expect(validateEnv({}).TRANSFER_LEASE_SECONDS).toBe(90);
    expect(validateEnv({ TRANSFER_LEASE_SECONDS: '15' }).TRANSFER_LEASE_SECONDS).toBe(15);
    // shorter than one provider call: a second attempt would take the transfer over mid-call
    expect(() => validateEnv({ TRANSFER_LEASE_SECONDS: '14' })).toThrow(/TRANSFER_LEASE_SECONDS/);
    expect(() => validateEnv({ TRANSFER_LEASE_SECONDS: '5' })).toThrow(/TRANSFER_LEASE_SECONDS/);
    expect(() => validateEnv({ TRANSFER_LEASE_SECONDS: '3601' })).toThrow(/TRANSFER_LEASE_SECONDS/);
  });

  it('sign-in policy numbers and TRUST_PROXY (issue 18)', () => {
    expect(validateEnv({})).toMatchObject({
      RATE_LIMIT_SIGN_IN_PER_ADDRESS: 20,
      SIGN_IN_FAILURES_PER_ADDRESS: 5,
      SIGN_IN_FAILURES_PER_ADDRESS_PER_DAY: 20,
      SIGN_IN_FAILURES_PER_ACCOUNT_PER_HOUR: 100,
    });
    expect(validateEnv({}).TRUST_PROXY).toBeUndefined();
    expect(validateEnv({ TRUST_PROXY: '1' }).TRUST_PROXY).toBe('1');
    expect(validateEnv({ TRUST_PROXY: '10.0.0.0/8,192.168.1.7' }).TRUST_PROXY).toBe('10.0.0.0/8,192.168.1.7');
    expect(() => validateEnv({ TRUST_PROXY: 'true' })).toThrow(/TRUST_PROXY/);
    expect(() => validateEnv({ TRUST_PROXY: 'proxy.internal' })).toThrow(/TRUST_PROXY/);
    expect(() => validateEnv({ SIGN_IN_FAILURES_PER_ADDRESS: '0' })).toThrow(/SIGN_IN_FAILURES_PER_ADDRESS/);
  });

  it('parses booleans and numbers from strings', () => {
    const env = validateEnv({ PORT: '8080', QUEUE_PROCESSORS: 'false' });
    expect(env.PORT).toBe(8080);
    expect(env.QUEUE_PROCESSORS).toBe(false);
  });

  it.each(['*', 'https://admin.example.com', 'http://localhost:5173, https://admin.example.com:8443'])(
    'accepts CORS_ORIGINS=%s',
    (value) => expect(validateEnv({ CORS_ORIGINS: value }).CORS_ORIGINS).toBe(value),
  );
});

describe('validateEnv: hardening (issue 18)', () => {
  const prod = { NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) };

  it('refuses DB_COMMAND_CAPTURE_VALUES in production (the capture files would hold data)', () => {
    expect(() => validateEnv({ ...prod, DB_COMMAND_CAPTURE_VALUES: 'true' })).toThrow(
      /^Invalid configuration: DB_COMMAND_CAPTURE_VALUES must not be set when NODE_ENV=production/,
    );
    expect(validateEnv({ ...prod, DB_COMMAND_CAPTURE_VALUES: 'false' }).DB_COMMAND_CAPTURE_VALUES).toBe(
      false,
    );
    expect(
      validateEnv({ NODE_ENV: 'test', DB_COMMAND_CAPTURE_VALUES: 'true' }).DB_COMMAND_CAPTURE_VALUES,
    ).toBe(true);
  });

  it('defaults: docs on, 30 s request timeout, 120 s connection timeout, no private outbound targets', () => {
    expect(validateEnv({})).toMatchObject({
      DOCS_ENABLED: true,
      HTTP_REQUEST_TIMEOUT_MS: 30_000,
      HTTP_CONNECTION_TIMEOUT_MS: 120_000,
      OUTBOUND_ALLOW_PRIVATE: false,
    });
    expect(validateEnv({ DOCS_ENABLED: 'false' }).DOCS_ENABLED).toBe(false);
  });

  it.each(['shops.example.com', '*.shops.example.com', 'a.example.com, *.b.example.org'])(
    'accepts SHOPIFY_ALLOWED_HOSTS=%s',
    (value) => expect(validateEnv({ SHOPIFY_ALLOWED_HOSTS: value }).SHOPIFY_ALLOWED_HOSTS).toBe(value),
  );

  it.each([
    '127.0.0.1',
    '10.0.0.1,shops.example.com',
    '::1',
    'shops.example.com:443',
    'https://x.example.com',
    '*',
  ])('refuses SHOPIFY_ALLOWED_HOSTS=%s (IP literals, ports, URLs, wildcards alone)', (value) =>
    expect(() => validateEnv({ SHOPIFY_ALLOWED_HOSTS: value })).toThrow(/SHOPIFY_ALLOWED_HOSTS/),
  );

  it('provider webhook intake settings (issue 28): defaults and bounds', () => {
    expect(validateEnv({})).toMatchObject({
      PROVIDER_WEBHOOK_PER_ADDRESS_PER_MINUTE: 600,
      PAYPAL_WEBHOOK_MAX_BYTES: 65_536,
      PAYPAL_WEBHOOK_TOLERANCE_SECONDS: 300,
    });
    expect(validateEnv({ PAYPAL_WEBHOOK_MAX_BYTES: '16384' }).PAYPAL_WEBHOOK_MAX_BYTES).toBe(16_384);
    // Above the app-wide 1 MB body limit the cap would mean nothing; below 4 KiB PayPal's own events fail.
    expect(() => validateEnv({ PAYPAL_WEBHOOK_MAX_BYTES: String(2 * 1024 * 1024) })).toThrow(
      /PAYPAL_WEBHOOK_MAX_BYTES/,
    );
    expect(() => validateEnv({ PAYPAL_WEBHOOK_MAX_BYTES: '1000' })).toThrow(/PAYPAL_WEBHOOK_MAX_BYTES/);
    expect(() => validateEnv({ PAYPAL_WEBHOOK_TOLERANCE_SECONDS: '5' })).toThrow(
      /PAYPAL_WEBHOOK_TOLERANCE_SECONDS/,
    );
    expect(() => validateEnv({ PROVIDER_WEBHOOK_PER_ADDRESS_PER_MINUTE: '0' })).toThrow(
      /PROVIDER_WEBHOOK_PER_ADDRESS_PER_MINUTE/,
    );
  });

  it('checks the previous encryption key like the current one', () => {
    expect(() => validateEnv({ DATA_ENCRYPTION_KEY_PREVIOUS: 'abc' })).toThrow(
      /DATA_ENCRYPTION_KEY_PREVIOUS/,
    );
  });
});

describe('queue processors per process role', () => {
  it.each([
    ['api', undefined, true],
    ['api', false, false],
    ['worker', undefined, true],
    ['worker', false, true],
    ['cli', undefined, false],
    ['cli', true, true],
  ] as const)('%s with QUEUE_PROCESSORS=%p → %p', (role, setting, expected) => {
    expect(queueProcessorsFor(role, setting)).toBe(expected);
  });
});
