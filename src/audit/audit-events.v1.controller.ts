import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors } from '../common/http/api-errors.decorator';
import type { ShopScope } from '../common/tenancy';
import { AuditEventsService } from './audit-events.service';
import { AuditEventListDto, AuditEventListQueryDto } from './dto/audit-event.dto';

export const AUDIT_LIST_DESCRIPTION =
  'Every write made with a shop, merchant or vendor credential — vendors, users, commissions and SKUs, ' +
  'shop settings and profile, line item figures, fulfillments, payout adjustments, payout batches, merchant ' +
  'keys — as `{at, actor, action, resource, before, after, requestId}`, `before`/`after` holding only the ' +
  'changed fields and never a secret (keys, passwords and tokens read `[redacted]` or are left out). Newest ' +
  'first; filters combine. An event appears with its write; one whose request died between the two appears ' +
  'once the repair job has run.';

@ApiTags('Audit events')
@V1Auth('shop')
@Controller('v1/audit-events')
export class AuditEventsV1Controller {
  constructor(private readonly events: AuditEventsService) {}

  @Get()
  @ApiOperation({
    operationId: 'listAuditEvents',
    summary: "The shop's audit trail (offset paging)",
    description: AUDIT_LIST_DESCRIPTION,
  })
  @ApiOkResponse({ type: AuditEventListDto })
  @ApiV1Errors(422)
  list(@Scope() scope: ShopScope, @Query() query: AuditEventListQueryDto): Promise<AuditEventListDto> {
    return this.events.list(scope, query);
  }
}
