import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V2Auth } from '../common/auth/auth.decorators';
import { ApiV2Errors } from '../common/http/api-errors.decorator';
import { ok, V2Envelope } from '../common/http/envelope';
import type { ShopScope } from '../common/tenancy';
import { AuditEventsService } from './audit-events.service';
import { AUDIT_LIST_DESCRIPTION } from './audit-events.v1.controller';
import {
  AuditEventPageQueryDto,
  AuditEventsPageDto,
  AuditEventsPageEnvelopeDto,
} from './dto/audit-event.dto';

@ApiTags('Audit events')
@V2Auth('merchant', 'shop')
@Controller('v2/audit-events')
export class AuditEventsV2Controller {
  constructor(private readonly events: AuditEventsService) {}

  @Get()
  @ApiOperation({
    operationId: 'listAuditEvents',
    summary: "The shop's audit trail (cursor paging)",
    description: AUDIT_LIST_DESCRIPTION,
  })
  @ApiOkResponse({ type: AuditEventsPageEnvelopeDto })
  @ApiV2Errors(422)
  async list(
    @Scope() scope: ShopScope,
    @Query() query: AuditEventPageQueryDto,
  ): Promise<V2Envelope<AuditEventsPageDto>> {
    return ok(await this.events.page(scope, query));
  }
}
