import { Controller, Get, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V2Auth } from '../common/auth/auth.decorators';
import { RequireScope } from '../common/auth/scopes';
import { ApiV2Errors } from '../common/http/api-errors.decorator';
import { ok, V2Envelope } from '../common/http/envelope';
import { ApiOperationIdsByPath } from '../common/http/openapi-keys';
import type { ShopScope } from '../common/tenancy';
import {
  FulfillmentCountsDto,
  FulfillmentCountsEnvelopeDto,
  FulfillmentStatsDto,
  FulfillmentStatsEnvelopeDto,
} from './dto/fulfillment-reports.dto';
import {
  FulfillmentFiltersDto,
  FulfillmentPageQueryDto,
  FulfillmentRowsPageDto,
  FulfillmentRowsPageEnvelopeDto,
} from './dto/fulfillment-v2.dto';
import { FulfillmentReadsService } from './fulfillment-reads.service';

const ROWS =
  'The rows are those of GET /v1/fulfillments: line items of paid orders, dated by their order. A vendor token reads ' +
  'its own (a `vendorId` filter is ignored); a shop token reads the shop’s, `vendorId` narrowing to one vendor.';

/** GET /fulfillments, /fulfillments/counts, /fulfillments/stats and their /v2 twins (DESIGN §12). */
@ApiTags('Fulfillments')
@Controller()
export class FulfillmentReadsV2Controller {
  constructor(private readonly reads: FulfillmentReadsService) {}

  @Get(['fulfillments', 'v2/fulfillments'])
  @V2Auth('shop', 'vendor')
  @RequireScope('fulfillments:read')
  @ApiOperationIdsByPath({
    '/fulfillments': 'listVendorFulfillments',
    '/v2/fulfillments': 'listFulfillmentsV2',
  })
  @ApiOperation({
    summary: 'Fulfillment rows, newest order first (cursor paging)',
    description: `${ROWS} Vendor token: scope \`fulfillments:read\`.`,
  })
  @ApiOkResponse({ type: FulfillmentRowsPageEnvelopeDto })
  @ApiV2Errors(422)
  async list(
    @Scope() scope: ShopScope,
    @Query() query: FulfillmentPageQueryDto,
  ): Promise<V2Envelope<FulfillmentRowsPageDto>> {
    return ok(await this.reads.list(scope, query));
  }

  @Get(['fulfillments/counts', 'v2/fulfillments/counts'])
  @V2Auth('shop', 'vendor')
  @RequireScope('fulfillments:read')
  @ApiOperationIdsByPath({
    '/fulfillments/counts': 'countVendorFulfillments',
    '/v2/fulfillments/counts': 'countFulfillmentsV2',
  })
  @ApiOperation({
    summary: 'Fulfillment rows counted by fulfillment status, and the fulfilled ones by shipment status',
    description: `${ROWS} One aggregation served by an index. Vendor token: scope \`fulfillments:read\`.`,
  })
  @ApiOkResponse({ type: FulfillmentCountsEnvelopeDto })
  @ApiV2Errors(422)
  async counts(
    @Scope() scope: ShopScope,
    @Query() query: FulfillmentFiltersDto,
  ): Promise<V2Envelope<FulfillmentCountsDto>> {
    return ok(await this.reads.counts(scope, query));
  }

  @Get(['fulfillments/stats', 'v2/fulfillments/stats'])
  @V2Auth('shop', 'vendor')
  @RequireScope('fulfillments:read')
  @ApiOperationIdsByPath({
    '/fulfillments/stats': 'getVendorFulfillmentStats',
    '/v2/fulfillments/stats': 'getFulfillmentStatsV2',
  })
  @ApiOperation({
    summary: 'How fast line items are fulfilled: average days, waiting over 7 days, share on time',
    description:
      `${ROWS} averageDaysToFulfill: mean of (fulfilled at − order placed) in days over the fulfilled rows; ` +
      'fulfilledOnTimePercentage: the share of them fulfilled within 7 days of the order; unfulfilledFor7Days: ' +
      'unfulfilled rows whose order is more than 7 days old. Both figures 2 dp, null when nothing is fulfilled. ' +
      'Vendor token: scope `fulfillments:read`.',
  })
  @ApiOkResponse({ type: FulfillmentStatsEnvelopeDto })
  @ApiV2Errors(422)
  async stats(
    @Scope() scope: ShopScope,
    @Query() query: FulfillmentFiltersDto,
  ): Promise<V2Envelope<FulfillmentStatsDto>> {
    return ok(await this.reads.stats(scope, query));
  }
}
