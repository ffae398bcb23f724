import './config/dotenv';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createAdapter, configureApp, createLoggerFromEnv } from './app.factory';
import { AppModule } from './app.module';
import { PinoNestLogger } from './common/logging/logger';
import { warmPdfRenderers } from './common/pdf/warm-up';
import { appConfig, authConfig } from './config/configuration';
import { EnvValidationError } from './config/env.validation';

async function bootstrap(): Promise<void> {
  const env = appConfig();
  const logger = createLoggerFromEnv();
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRole('api'),
    createAdapter(logger),
    {
      rawBody: true,
      logger: new PinoNestLogger(logger),
    },
  );
  await configureApp(app);
  await app.listen(env.port, env.host);
  const shown = env.host === '0.0.0.0' ? '127.0.0.1' : env.host;
  const bound = app.getHttpServer().address(); // the real port when PORT=0 asked for any free one
  const base = `http://${shown}:${typeof bound === 'object' && bound ? bound.port : env.port}`;
  logger.info({ url: base }, `Marketplace Admin API listening on ${base}`);
  setImmediate(() => {
    warmPdfRenderers().catch((err: Error) => logger.warn({ err }, 'PDF renderers not warmed up'));
  });
  const generated = authConfig().generatedSecretFile;
  if (generated)
    logger.warn(
      { file: generated },
      `JWT_SECRET is not set: using this installation's generated secret in ${generated}`,
    );
  // Human-facing hints on stderr, so stdout stays pure JSON logs.
  process.stderr.write(
    `\nMarketplace Admin API on ${base}\n` +
      `  Swagger UI: ${base}/docs/v1 and ${base}/docs/v2 (JSON: /docs/v1.json, /docs/v2.json)\n` +
      `  First shop: npm run --silent cli -- shop:create --domain demo.myshopify.com\n\n`,
  );
}

bootstrap().catch((err: unknown) => {
  if (err instanceof EnvValidationError) {
    process.stderr.write(`${err.message}\n`);
  } else {
    process.stderr.write(`Failed to start: ${(err as Error)?.stack ?? String(err)}\n`);
  }
  process.exit(1);
});
