import { Writable } from 'node:stream';
import pino from 'pino';
import { loggerOptions, PinoNestLogger } from './logger';

function capture(level = 'debug') {
  const lines: Array<Record<string, unknown>> = [];
  const stream = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) lines.push(JSON.parse(line));
      done();
    },
  });
  return { logger: pino(loggerOptions(level), stream), lines };
}

describe('JSON logs', () => {
  it('name the level instead of numbering it, and redact credentials', () => {
    const { logger, lines } = capture('info');
    logger.info({ apiKey: 'shpk_secret' }, 'hello');
    logger.error('broken');
    expect(lines).toEqual([
      expect.objectContaining({ level: 'info', msg: 'hello', apiKey: '[redacted]' }),
      expect.objectContaining({ level: 'error', msg: 'broken' }),
    ]);
  });
});

describe('PinoNestLogger', () => {
  it("keeps Nest's route mapping and module wiring at debug, everything else at info", () => {
    const { logger, lines } = capture('debug');
    const nest = new PinoNestLogger(logger);
    nest.log('Mapped {/v1/vendors, GET} route', 'RouterExplorer');
    nest.log('VendorsV1Controller {/v1/vendors}:', 'RoutesResolver');
    nest.log('AppModule dependencies initialized', 'InstanceLoader');
    nest.log('Nest application successfully started', 'NestApplication');
    expect(lines.map((l) => [l.level, l.context])).toEqual([
      ['debug', 'RouterExplorer'],
      ['debug', 'RoutesResolver'],
      ['debug', 'InstanceLoader'],
      ['info', 'NestApplication'],
    ]);
  });

  it('at the default info level, start-up shows no route lines', () => {
    const { logger, lines } = capture('info');
    new PinoNestLogger(logger).log('Mapped {/health, GET} route', 'RouterExplorer');
    expect(lines).toEqual([]);
  });
});
