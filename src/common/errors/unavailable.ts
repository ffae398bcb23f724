/**
 * Whether an error means "a backing service is unreachable right now" rather than "this request or
 * this code is wrong": the MongoDB driver's server-selection and network errors, mongoose's
 * no-connection errors, ioredis failing a command while disconnected, and our own timeouts on
 * calls to them. The exception filter answers these 503 + Retry-After (never 500, never 401).
 */
const MONGO_UNAVAILABLE = new Set([
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoPoolClearedError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoWaitQueueTimeoutError',
]);

const REDIS_UNAVAILABLE = [
  /^Stream isn't writeable/, // ioredis, enableOfflineQueue false and not connected
  /^Connection is closed/, // ioredis, the connection dropped with the command in flight
  /max retries per request/i, // ioredis MaxRetriesPerRequestError
];

const MONGOOSE_UNAVAILABLE = [/buffering timed out/, /before initial connection is complete/];

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENOTCONN',
]);

export function isServiceUnavailable(err: unknown, depth = 0): boolean {
  if (!err || typeof err !== 'object' || depth > 3) return false;
  const e = err as { name?: unknown; message?: unknown; code?: unknown; cause?: unknown };
  const name = typeof e.name === 'string' ? e.name : '';
  const message = typeof e.message === 'string' ? e.message : '';
  if (MONGO_UNAVAILABLE.has(name)) return true;
  if (name === 'TimeoutError' && / did not answer within /.test(message)) return true; // common/async/timeout
  if (name === 'MaxRetriesPerRequestError') return true;
  if (REDIS_UNAVAILABLE.some((re) => re.test(message))) return true;
  if (name === 'MongooseError' && MONGOOSE_UNAVAILABLE.some((re) => re.test(message))) return true;
  if (typeof e.code === 'string' && NETWORK_CODES.has(e.code)) return true;
  return isServiceUnavailable(e.cause, depth + 1);
}
