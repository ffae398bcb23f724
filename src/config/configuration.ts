import { createHash } from 'node:crypto';
import { ConfigType, registerAs } from '@nestjs/config';
import { validateEnv } from './env.validation';
import { processRole, queueProcessorsFor } from './process-role';

const DEV_JWT_SECRET = 'insecure-development-jwt-secret-do-not-use-in-production';

export const appConfig = registerAs('app', () => {
  const env = validateEnv(process.env);
  return {
    nodeEnv: env.NODE_ENV,
    port: env.PORT,
    host: env.HOST,
    logLevel: env.LOG_LEVEL,
    /** Whether this process registers queue processors (its role and QUEUE_PROCESSORS). */
    queueProcessors: queueProcessorsFor(processRole(), env.QUEUE_PROCESSORS),
    queuePrefix: env.QUEUE_PREFIX,
  };
});

export const databaseConfig = registerAs('database', () => {
  const env = validateEnv(process.env);
  return {
    uri: env.MONGODB_URI,
    captureCommands: env.DB_COMMAND_CAPTURE || env.DB_COMMAND_CAPTURE_DIR !== undefined,
    captureDir: env.DB_COMMAND_CAPTURE_DIR,
  };
});

export const redisConfig = registerAs('redis', () => ({ url: validateEnv(process.env).REDIS_URL }));

export const authConfig = registerAs('auth', () => {
  const secret = validateEnv(process.env).JWT_SECRET ?? DEV_JWT_SECRET;
  return {
    jwtSecret: secret,
    /** No JWT_SECRET given: the insecure development default is in use (warned at start). */
    /** Separate key for cursor signatures, derived so that one secret configures both. */
    cursorKey: createHash('sha256').update(`cursor:${secret}`).digest(),
    usingDevSecret: secret === DEV_JWT_SECRET,
  };
});

export const mailConfig = registerAs('mail', () => {
  const env = validateEnv(process.env);
  return { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM };
});

export const platformConfig = registerAs('platform', () => {
  const env = validateEnv(process.env);
  return { encryptionKey: env.DATA_ENCRYPTION_KEY, shopifyApiBaseUrl: env.SHOPIFY_API_BASE_URL };
});

/**
 * Read before Nest exists too (main, worker: the logger is handed to the adapter), by calling the
 * factory directly. `pretty` is for a developer's terminal; anything collected or piped gets JSON.
 */
export const loggingConfig = registerAs('logging', () => {
  const env = validateEnv(process.env);
  const terminal = process.stdout.isTTY === true && env.NODE_ENV !== 'production';
  return { level: env.LOG_LEVEL, format: env.LOG_FORMAT ?? (terminal ? 'pretty' : 'json') };
});

/** `corsOrigins`: empty = no CORS at all; `['*']` = any origin. */
export const httpConfig = registerAs('http', () => ({
  corsOrigins: parseCorsOrigins(validateEnv(process.env).CORS_ORIGINS),
}));

export function parseCorsOrigins(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
}

export type AppConfig = ConfigType<typeof appConfig>;
export type DatabaseConfig = ConfigType<typeof databaseConfig>;
export type RedisConfig = ConfigType<typeof redisConfig>;
export type AuthConfig = ConfigType<typeof authConfig>;
export type MailConfig = ConfigType<typeof mailConfig>;
export type PlatformConfig = ConfigType<typeof platformConfig>;
export type LoggingConfig = ConfigType<typeof loggingConfig>;
export type HttpConfig = ConfigType<typeof httpConfig>;

export const allConfigs = [
  appConfig,
  databaseConfig,
  redisConfig,
  authConfig,
  mailConfig,
  platformConfig,
  loggingConfig,
  httpConfig,
];
