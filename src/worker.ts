import './config/dotenv';
import './worker-role';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { createLoggerFromEnv } from './app.factory';
import { PinoNestLogger } from './common/logging/logger';
import { appConfig } from './config/configuration';
import { EnvValidationError } from './config/env.validation';

/** Queue processors only (no HTTP), for scaling workers out next to API processes run with QUEUE_PROCESSORS=false. */
async function bootstrap(): Promise<void> {
  appConfig(); // validates the environment: a bad value stops here with its one-line message
  const logger = createLoggerFromEnv();
  const app = await NestFactory.createApplicationContext(AppModule, { logger: new PinoNestLogger(logger) });
  app.enableShutdownHooks();
  logger.info('Marketplace worker started');
}

bootstrap().catch((err: unknown) => {
  process.stderr.write(
    err instanceof EnvValidationError
      ? `${err.message}\n`
      : `Worker failed: ${(err as Error)?.stack ?? String(err)}\n`,
  );
  process.exit(1);
});
