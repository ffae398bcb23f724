import { Module } from '@nestjs/common';
import { MongooseModule } from '@nestjs/mongoose';
import { JobRecord, JobRecordSchema } from './job.schema';
import { JobsRepository, SystemJobsRepository } from './jobs.repository';
import { JobsService } from './jobs.service';
import { JobsV1Controller } from './jobs.v1.controller';

/** Job resources (`GET /v1/jobs/{id}`): long work a request queued, followed by the caller. */
@Module({
  imports: [MongooseModule.forFeature([{ name: JobRecord.name, schema: JobRecordSchema }])],
  controllers: [JobsV1Controller],
  providers: [JobsRepository, SystemJobsRepository, JobsService],
  exports: [JobsService, SystemJobsRepository],
})
export class JobsModule {}
