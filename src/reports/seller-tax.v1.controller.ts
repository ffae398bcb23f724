import { Controller, Get, Query, StreamableFile } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { AcceptsCsv, ApiJsonOrCsvOk, csvFile } from '../common/csv';
import { ApiV1Errors } from '../common/http/api-errors.decorator';
import type { ShopScope } from '../common/tenancy';
import { SellerTaxReportDto, SellerTaxReportQueryDto } from './dto/seller-tax-report.dto';
import { SELLER_TAX_CSV_DOC } from './seller-tax.columns';
import { SellerTaxService } from './seller-tax.service';

@ApiTags('Payouts')
@V1Auth('shop')
@Controller('v1/reports')
export class SellerTaxV1Controller {
  constructor(private readonly reports: SellerTaxService) {}

  @Get('seller-tax')
  @ApiOperation({
    operationId: 'getSellerTaxReport',
    summary: 'Seller tax report (DAC7): per vendor and quarter, consideration, orders, fees and identity',
    description:
      'What an EU platform operator reports per seller under DAC7, for one calendar year (UTC): per vendor ' +
      'and quarter the consideration (Σ salesAfterDiscount of payable sale rows − refunds), the number of ' +
      'orders, the commissions, fees and taxes withheld, and the vendor’s identity from its tax profile ' +
      '(in full: the tax id and date of birth included, the report being their purpose) with `complete` ' +
      'and `missing`. Each call is audited (`shop.seller_tax_report.export`: year, format, row count, no ' +
      'identity value). A sale row counts in the ' +
      'quarter of its order’s creation, a refund row in the quarter of the refund; a sale row counts once ' +
      'its order is paid, partially refunded or refunded (or a batch paid it). Payout adjustments are not ' +
      'counted. Every figure is summed from the rows in integer cents, kept per vendor and quarter and ' +
      'recomputed whenever a row of the quarter changes: a row written by another process shows within ' +
      'about a second, as the vendor balance does. Only vendors with a counted row in the year are ' +
      'listed, by name.',
  })
  @ApiJsonOrCsvOk({ json: SellerTaxReportDto, ...SELLER_TAX_CSV_DOC })
  @ApiV1Errors(422)
  async sellerTax(
    @Scope() scope: ShopScope,
    @Query() query: SellerTaxReportQueryDto,
    @AcceptsCsv() csv: boolean,
  ): Promise<SellerTaxReportDto | StreamableFile> {
    if (!csv) return this.reports.report(scope, query.year);
    const { stream, filename } = await this.reports.reportCsv(scope, query.year);
    return csvFile(stream, filename);
  }
}
