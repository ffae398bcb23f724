// Loaded before every e2e file: the test run's database (scripts/test.sh picks a fresh one per run) and quiet logs.
process.env.NODE_ENV = 'test';
process.env.MONGODB_URI ??= 'mongodb://127.0.0.1:27017/marketplace_test';
process.env.REDIS_URL ??= 'redis://127.0.0.1:6379';
// One queue namespace per jest worker: files of different workers never take each other's jobs (an
// app shutting down at the end of one file must not be the one that picked up another file's
// delivery). Files of one worker run one after another; a file's child processes inherit it.
process.env.QUEUE_PREFIX = `${process.env.QUEUE_PREFIX ?? 'mp-test'}-w${process.pid}`;
process.env.LOG_LEVEL = process.env.TEST_LOG_LEVEL ?? 'silent';
process.env.DB_COMMAND_CAPTURE ??= 'true';
// Each test app's ops listener (metrics, health) on a free port: files run in parallel.
process.env.METRICS_PORT ??= '0';
// Each test file's shops send far more than 100 requests a minute from one address; the rate-limit
// test lowers these for its own app.
process.env.RATE_LIMIT_SHOP_PER_MINUTE ??= '1000000';
process.env.RATE_LIMIT_MERCHANT_PER_MINUTE ??= '1000000';
process.env.RATE_LIMIT_VENDOR_PER_MINUTE ??= '1000000';
process.env.RATE_LIMIT_SIGN_IN_PER_ADDRESS ??= '1000000';
process.env.PROVIDER_WEBHOOK_PER_ADDRESS_PER_MINUTE ??= '1000000';
