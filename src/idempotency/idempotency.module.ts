import { Global, Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { IdempotencyInterceptor } from './idempotency.interceptor';
import { IdempotencyAnswersRotation } from './idempotency-rotation.service';
import { IdempotencyRecord, IdempotencyRecordSchema } from './idempotency-record.schema';
import { IdempotencyRepository, SystemIdempotencyRepository } from './idempotency.repository';
import { IdempotencyService } from './idempotency.service';
import { ResponseSeal } from './response-seal';

/** `Idempotency-Key` for write routes (`@Idempotent()`), global so every feature's controllers can use it. */
@Global()
@Module({
  imports: [MongooseModule.forFeature([{ name: IdempotencyRecord.name, schema: IdempotencyRecordSchema }])],
  providers: [
    IdempotencyRepository,
    SystemIdempotencyRepository,
    IdempotencyService,
    ResponseSeal,
    IdempotencyInterceptor,
    IdempotencyAnswersRotation,
  ],
  exports: [
    IdempotencyService,
    IdempotencyInterceptor,
    SystemIdempotencyRepository,
    IdempotencyAnswersRotation,
  ],
})
export class IdempotencyModule {}
