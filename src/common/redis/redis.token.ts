/**
 * The injection token of the shared ioredis client (provided by src/redis/redis.module.ts). It lives
 * in common/ so common's own users of Redis (the rate limits) depend on the token, not on the module.
 */
export const REDIS = Symbol('REDIS');
