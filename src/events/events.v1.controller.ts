import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors, notFound } from '../common/http/api-errors.decorator';
import type { ShopScope } from '../common/tenancy';
import { EventDto, EventListDto, EventListQueryDto } from './dto/event.dto';
import { EventsService } from './events.service';

@ApiTags('Events')
@V1Auth('shop')
@Controller('v1/events')
export class EventsV1Controller {
  constructor(private readonly events: EventsService) {}

  @Get()
  @ApiOperation({
    operationId: 'listEvents',
    summary: "The shop's outbound events of the last 30 days, newest first",
    description: 'For pollers and for finding a replay point; each event is the body endpoints receive.',
  })
  @ApiOkResponse({ type: EventListDto })
  @ApiV1Errors(422)
  list(@Scope() scope: ShopScope, @Query() query: EventListQueryDto): Promise<EventListDto> {
    return this.events.list(scope, query);
  }

  @Get(':eventId')
  @ApiOperation({ operationId: 'getEvent', summary: 'One event of the last 30 days' })
  @ApiParam({
    name: 'eventId',
    example: 'evt_6750a1b2c3d4e5f6a7b8c9d0',
    schema: { type: 'string', pattern: '^evt_[0-9a-f]{24}$', minLength: 28, maxLength: 28 },
  })
  @ApiOkResponse({ type: EventDto })
  @ApiV1Errors(notFound('Event'))
  get(@Scope() scope: ShopScope, @Param('eventId') id: string): Promise<EventDto> {
    return this.events.get(scope, id);
  }
}
