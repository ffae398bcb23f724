import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Matches, Max, Min, ValidateIf } from 'class-validator';
import { toBool } from './env-transforms';
import type { ServerEnv } from './server.env';

/** MongoDB, Redis and the queues, with the sweepers and jobs that keep their data whole. (Part of EnvironmentVariables, env.validation.ts.) */
export class StoresEnv {
  @Matches(/^mongodb(\+srv)?:\/\/\S+$/, { message: 'must be a mongodb:// or mongodb+srv:// URI' })
  MONGODB_URI = 'mongodb://127.0.0.1:27017/marketplace';

  @Matches(/^rediss?:\/\/\S+$/, { message: 'must be a redis:// or rediss:// URL' })
  REDIS_URL = 'redis://127.0.0.1:6379';

  /**
   * Run Bull processors inside the HTTP process (set false when scaling workers out with
   * dist/worker.js). Unset: yes for the API, no for the CLI (see config/process-role.ts).
   */
  @Transform(toBool)
  QUEUE_PROCESSORS?: boolean;

  /** Bull key prefix, so several deployments (or test runs) can share one Redis. */
  @IsString()
  @Matches(/^[A-Za-z0-9:_-]+$/, { message: 'may contain only letters, digits, ":", "_" and "-"' })
  QUEUE_PREFIX = 'mp';

  /**
   * Observe every database command (driver command monitoring) and attribute it to its request or
   * job: the round-trip budget tests and the benchmark read it. Off in production.
   */
  @Transform(toBool)
  DB_COMMAND_CAPTURE = false;

  /** With DB_COMMAND_CAPTURE: also append each command's shape (never values) to files in this directory. */
  @IsOptional()
  @IsString()
  DB_COMMAND_CAPTURE_DIR?: string;

  /**
   * With DB_COMMAND_CAPTURE_DIR: also write each command in full (values included, as extended
   * JSON) with its start time, so the benchmark can replay a request's commands as its floor.
   * Never in production: the file then holds data.
   */
  @Transform(toBool)
  @ValidateIf((env: ServerEnv) => env.NODE_ENV === 'production')
  @IsIn([false], { message: 'must not be set when NODE_ENV=production (the capture files would hold data)' })
  DB_COMMAND_CAPTURE_VALUES = false;

  /** A webhook delivery still `received` this long after it arrived is re-enqueued by the sweeper (also its processing lease). */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(1)
  @Max(86_400)
  INBOX_REDRIVE_AFTER_SECONDS = 120;

  /** Processed webhook deliveries older than this are purged (at least 3: past the platform's 48 h retry window). */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(3)
  @Max(3650)
  INBOX_RETENTION_DAYS = 30;

  /** How often the sweepers run (stranded deliveries, payout batches whose lease lapsed). */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(1)
  @Max(3600)
  SWEEP_EVERY_SECONDS = 60;

  /** A payout run's lease; its heartbeat renews it every third of this, so a dead run's lease lapses within it. */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(3)
  @Max(600)
  PAYOUT_LEASE_SECONDS = 30;

  /**
   * An audited write whose event is still in its document's outbox (or a deletion still pending)
   * this long after it was made is completed by the audit repair job.
   */
  @Transform(({ value }) => (value === undefined ? value : Number(value)))
  @IsInt()
  @Min(1)
  @Max(86_400)
  AUDIT_REPAIR_AFTER_SECONDS = 60;
}
