import './config/dotenv';
import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
import { createLoggerFromEnv } from './app.factory';
import { PinoNestLogger } from './common/logging/logger';
import { EnvValidationError } from './config/env.validation';
import { OpsServer } from './ops/ops-server';

/**
 * The worker role: queue processors and sweepers, no API. Its only listener is the ops port
 * (METRICS_PORT, default 9465): `/metrics`, `/health`, `/health/ready` — the container's liveness
 * check. Run API processes with QUEUE_PROCESSORS=false next to it to scale processing separately.
 */
async function bootstrap(): Promise<void> {
  const logger = createLoggerFromEnv(); // validates the environment: a bad value stops here with its one-line message
  const app = await NestFactory.createApplicationContext(AppModule.forRole('worker'), {
    logger: new PinoNestLogger(logger),
  });
  app.enableShutdownHooks();
  logger.info({ ops: app.get(OpsServer).url() }, 'Marketplace worker started');
}

bootstrap().catch((err: unknown) => {
  process.stderr.write(
    err instanceof EnvValidationError
      ? `${err.message}\n`
      : `Worker failed: ${(err as Error)?.stack ?? String(err)}\n`,
  );
  process.exit(1);
});
