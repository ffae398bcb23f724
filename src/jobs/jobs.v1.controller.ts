import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors, notFound } from '../common/http/api-errors.decorator';
import type { ShopScope } from '../common/tenancy';
import { JobDto } from './dto/job.dto';
import { JobsService } from './jobs.service';
import { ObjectIdParam } from '../common/http/params';

@ApiTags('Operations')
@V1Auth('shop')
@Controller('v1/jobs')
export class JobsV1Controller {
  constructor(private readonly jobs: JobsService) {}

  @Get(':id')
  @ApiOperation({
    operationId: 'getJob',
    summary: 'Follow queued work, e.g. a recalculation (`jobId` of POST /v1/lineitems/update)',
  })
  @ObjectIdParam('id', '6743b1c2d3e4f5a6b7c8d9e0', 'Job id (`jobId` of the request that started it)')
  @ApiOkResponse({ type: JobDto })
  @ApiV1Errors(notFound('Job'))
  get(@Scope() scope: ShopScope, @Param('id') id: string): Promise<JobDto> {
    return this.jobs.get(scope, id);
  }
}
