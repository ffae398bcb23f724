import { httpConfig, loggingConfig, parseCorsOrigins } from './configuration';

describe('httpConfig', () => {
  it('splits CORS_ORIGINS on commas; unset means none', () => {
    expect(parseCorsOrigins(undefined)).toEqual([]);
    expect(parseCorsOrigins(' https://a.example.com , http://localhost:5173')).toEqual([
      'https://a.example.com',
      'http://localhost:5173',
    ]);
    expect(parseCorsOrigins('*')).toEqual(['*']);
  });

  it('reads the validated environment', () => {
    const saved = process.env.CORS_ORIGINS;
    process.env.CORS_ORIGINS = 'https://admin.example.com';
    try {
      expect(httpConfig()).toEqual({
        corsOrigins: ['https://admin.example.com'],
        trustProxy: false,
        docsEnabled: true,
        requestTimeoutMs: 30_000,
        connectionTimeoutMs: 120_000,
      });
    } finally {
      if (saved === undefined) delete process.env.CORS_ORIGINS;
      else process.env.CORS_ORIGINS = saved;
    }
  });
});

describe('TRUST_PROXY', () => {
  const saved = process.env.TRUST_PROXY;
  afterEach(() => {
    if (saved === undefined) delete process.env.TRUST_PROXY;
    else process.env.TRUST_PROXY = saved;
  });

  it("becomes Fastify's trustProxy: none by default, hops or proxy addresses when set", () => {
    delete process.env.TRUST_PROXY;
    expect(httpConfig().trustProxy).toBe(false);
    process.env.TRUST_PROXY = '2';
    expect(httpConfig().trustProxy).toBe(2);
    process.env.TRUST_PROXY = '10.0.0.0/8, loopback';
    expect(httpConfig().trustProxy).toEqual(['10.0.0.0/8', 'loopback']);
  });
});

describe('PUBLIC_URL', () => {
  const saved = process.env.PUBLIC_URL;
  afterEach(() => {
    if (saved === undefined) delete process.env.PUBLIC_URL;
    else process.env.PUBLIC_URL = saved;
  });

  it('is the public address for the OpenAPI servers, without its trailing slash', () => {
    process.env.PUBLIC_URL = 'https://api.example.com/marketplace/';
    expect(httpConfig().publicUrl).toBe('https://api.example.com/marketplace');
    delete process.env.PUBLIC_URL;
    expect(httpConfig().publicUrl).toBeUndefined();
  });

  it.each(['api.example.com', 'ftp://api.example.com', 'https://api.example.com/?x=1', 'https://a b.com'])(
    'refuses %s, naming the variable',
    (value) => {
      process.env.PUBLIC_URL = value;
      expect(() => httpConfig()).toThrow(
        /^Invalid configuration: PUBLIC_URL must be an absolute http\(s\) URL/,
      );
    },
  );
});

describe('loggingConfig', () => {
  const saved = { ...process.env };
  const tty = Object.getOwnPropertyDescriptor(process.stdout, 'isTTY');
  const onTerminal = (value: boolean) =>
    Object.defineProperty(process.stdout, 'isTTY', { value, configurable: true });
  afterEach(() => {
    process.env = { ...saved };
    if (tty) Object.defineProperty(process.stdout, 'isTTY', tty);
    else delete (process.stdout as { isTTY?: boolean }).isTTY;
  });

  it.each([
    [true, 'development', 'pretty'],
    [true, 'test', 'pretty'],
    [true, 'production', 'json'],
    [false, 'development', 'json'],
  ] as const)('stdout a terminal: %s, NODE_ENV=%s: %s by default', (terminal, nodeEnv, format) => {
    onTerminal(terminal);
    process.env = { ...saved, NODE_ENV: nodeEnv, JWT_SECRET: 'x'.repeat(32) };
    delete process.env.LOG_FORMAT;
    expect(loggingConfig().format).toBe(format);
  });

  it('LOG_FORMAT wins over the guess', () => {
    onTerminal(true);
    process.env = { ...saved, NODE_ENV: 'development', LOG_FORMAT: 'json', LOG_LEVEL: 'debug' };
    expect(loggingConfig()).toEqual({ level: 'debug', format: 'json' });
  });
});
