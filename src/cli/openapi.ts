import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Test } from '@nestjs/testing';
import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createAdapter } from '../app.factory';
import { AppModule } from '../app.module';
import { createLogger } from '../common/logging/logger';
import { queuesReady } from '../queues/queues';
import { buildDocuments } from '../docs/swagger';

/** `write` regenerates openapi/v1.json and openapi/v2.json; `check` fails when the committed files are stale. */
async function main(mode: string): Promise<number> {
  const moduleRef = await Test.createTestingModule({ imports: [AppModule.forRole('cli')] }).compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(createAdapter(createLogger('silent')), {
    logger: false,
  });
  await app.init();
  await queuesReady(app);
  const docs = buildDocuments(app);
  await app.close();
  const dir = join(__dirname, '..', '..', 'openapi');
  let stale = 0;
  for (const [name, doc] of Object.entries(docs)) {
    const file = join(dir, `${name}.json`);
    const text = JSON.stringify(doc, null, 2) + '\n';
    if (mode === 'write') {
      writeFileSync(file, text);
      process.stdout.write(`wrote ${file}\n`);
    } else {
      let current = '';
      try {
        current = readFileSync(file, 'utf8');
      } catch {
        // missing counts as stale
      }
      if (current !== text) {
        stale++;
        process.stderr.write(
          `openapi/${name}.json is out of date: run \`npm run openapi\` and commit the result\n`,
        );
      }
    }
  }
  if (mode !== 'write' && stale === 0)
    process.stdout.write('openapi/v1.json and openapi/v2.json are up to date\n');
  return stale ? 1 : 0;
}

main(process.argv[2] ?? 'check').then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
  },
);
