import { Controller, Get, Param } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors } from '../common/http/api-errors.decorator';
import type { ShopScope } from '../common/tenancy';
import { JobDto } from './dto/job.dto';
import { JobsService } from './jobs.service';

@ApiTags('Jobs')
@V1Auth('shop')
@Controller('v1/jobs')
export class JobsV1Controller {
  constructor(private readonly jobs: JobsService) {}

  @Get(':id')
  @ApiOperation({
    summary: 'Follow queued work, e.g. a recalculation (`jobId` of POST /v1/lineitems/update)',
  })
  @ApiParam({ name: 'id', example: '6743b1c2d3e4f5a6b7c8d9e0' })
  @ApiOkResponse({ type: JobDto })
  @ApiV1Errors(404)
  get(@Scope() scope: ShopScope, @Param('id') id: string): Promise<JobDto> {
    return this.jobs.get(scope, id);
  }
}
