import { Controller, Get, Param, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ObjectIdParam } from '../common/http/params';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors } from '../common/http/api-errors.decorator';
import type { ShopScope } from '../common/tenancy';
import { VendorReportDto, VendorReportQueryDto } from './dto/vendor-report.dto';
import { VendorReportService } from './vendor-report.service';

@ApiTags('Payouts')
@V1Auth('shop')
@Controller('v1/report')
export class VendorReportV1Controller {
  constructor(private readonly reports: VendorReportService) {}

  @Get(':vendorId')
  @ApiOperation({
    operationId: 'getVendorReport',
    summary: "A vendor's calculated line items in a date range, with totals",
    description:
      'Every calculated line item of the vendor whose order date lies in `start`–`end` (UTC calendar days, ' +
      'both inclusive; either may be left out), newest order first, a page at a time. `totals` add up the ' +
      'whole range, not only the page, to the cent: `netSales` is Σ salesAfterDiscount.',
  })
  @ObjectIdParam('vendorId', '6740c1a2e4b0f15b3c9d0a21', 'Vendor id')
  @ApiOkResponse({ type: VendorReportDto })
  @ApiV1Errors(404, 422)
  report(
    @Scope() scope: ShopScope,
    @Param('vendorId') vendorId: string,
    @Query() query: VendorReportQueryDto,
  ): Promise<VendorReportDto> {
    return this.reports.report(scope, vendorId, query);
  }
}
