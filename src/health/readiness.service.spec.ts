import { Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import type { Connection } from 'mongoose';
import { ReadinessService } from './readiness.service';

const DRIVER_TEXT = 'connect ECONNREFUSED 10.0.0.7:27017 (mongodb://admin:s3cret@db.internal)';

const connection = (ping: () => Promise<unknown>) =>
  ({ db: { admin: () => ({ ping }) } }) as unknown as Connection;
const redis = (ping: () => Promise<unknown>) => ({ ping }) as unknown as Redis;

describe('ReadinessService', () => {
  afterEach(() => jest.restoreAllMocks());

  it('names the dependency that is down in its own words; the driver text only reaches the log', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const service = new ReadinessService(
      connection(() => Promise.reject(new Error(DRIVER_TEXT))),
      redis(() => Promise.resolve('PONG')),
    );
    const result = await service.check();
    expect(result).toEqual({
      status: 'error',
      info: { redis: { status: 'up' } },
      error: { mongodb: { status: 'down', message: 'unreachable' } },
      details: { mongodb: { status: 'down', message: 'unreachable' }, redis: { status: 'up' } },
    });
    expect(JSON.stringify(result)).not.toContain('ECONNREFUSED');
    expect(JSON.stringify(warn.mock.calls)).toContain('ECONNREFUSED');
  });

  it('a dependency that hangs is "no answer in time"', async () => {
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const service = new ReadinessService(
      connection(() => Promise.resolve({ ok: 1 })),
      redis(() => new Promise(() => undefined)),
    );
    const result = await service.check();
    expect(result.error).toEqual({ redis: { status: 'down', message: 'no answer in time' } });
  });
});
