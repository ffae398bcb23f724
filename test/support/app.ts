import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test, TestingModuleBuilder } from '@nestjs/testing';
import { configureApp, createAdapter } from '../../src/app.factory';
import { AppModule } from '../../src/app.module';
import { Clock } from '../../src/common/clock/clock';
import { createLogger } from '../../src/common/logging/logger';
import { queuesReady } from '../../src/queues/queues';
import { Api } from './http';
import { TestClock } from './test-clock';

export interface TestApp {
  app: NestFastifyApplication;
  api: Api;
  url: string;
  clock: TestClock;
  close(): Promise<void>;
}

/**
 * The real application (same adapter, pipes, filter and Swagger as production) on an ephemeral
 * port, against the real MongoDB-compatible server and Redis; only the clock is injectable.
 */
export async function startApp(
  customise?: (builder: TestingModuleBuilder) => TestingModuleBuilder,
): Promise<TestApp> {
  const clock = new TestClock();
  let builder = Test.createTestingModule({ imports: [AppModule.forRole('api')] })
    .overrideProvider(Clock)
    .useValue(clock);
  if (customise) builder = customise(builder);
  const moduleRef = await builder.compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(
    createAdapter(createLogger(process.env.LOG_LEVEL ?? 'silent')),
    {
      rawBody: true,
      logger: false,
    },
  );
  await configureApp(app);
  await app.listen(0, '127.0.0.1');
  await queuesReady(app);
  const url = (await app.getUrl()).replace('[::1]', '127.0.0.1');
  return { app, api: new Api(url), url, clock, close: () => app.close() };
}
