import { Body, Controller, Get, HttpCode, Post, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors } from '../common/http/api-errors.decorator';
import type { ShopScope } from '../common/tenancy';
import { CommissionsService } from './commissions.service';
import {
  SkuCommissionListDto,
  SkuUploadDto,
  SkuUploadResultDto,
  VendorCommissionListDto,
} from './dto/commission.dto';
import { Idempotent } from '../idempotency/idempotent.decorator';

@ApiTags('Commissions')
@V1Auth('shop')
@Controller('v1/commissions')
export class CommissionsV1Controller {
  constructor(private readonly commissions: CommissionsService) {}

  @Post('sku')
  @HttpCode(200)
  @ApiOperation({
    operationId: 'uploadSkuCommissions',
    summary: 'Upload SKU commissions and costs of goods (upsert per SKU, at most 500)',
    description:
      'Each element is checked on its own: invalid ones are listed in `errors` (success false) and the valid ' +
      'ones are still written. A repeated SKU is applied in order (the last wins) and counts as one create ' +
      'then updates. A missing or non-array `skus`, or more than 500 elements, is a 422.',
  })
  @ApiOkResponse({ type: SkuUploadResultDto })
  @Idempotent('v1')
  @ApiV1Errors(400, 413, 422)
  upload(@Scope() scope: ShopScope, @Body() body: SkuUploadDto): Promise<SkuUploadResultDto> {
    return this.commissions.uploadSkus(scope, body);
  }

  @Get('sku')
  @ApiOperation({
    operationId: 'listSkuCommissions',
    summary: 'Every SKU record of the shop',
    description: 'Streamed: fine for shops with tens of thousands of SKUs.',
  })
  @ApiOkResponse({ type: SkuCommissionListDto })
  async listSkus(@Scope() scope: ShopScope, @Res() reply: FastifyReply): Promise<void> {
    const body = await this.commissions.skuListStream(scope);
    await reply.type('application/json; charset=utf-8').send(body);
  }

  @Get('vendor')
  @ApiOperation({ operationId: 'listVendorCommissions', summary: 'The commission of every active vendor' })
  @ApiOkResponse({ type: VendorCommissionListDto })
  vendors(@Scope() scope: ShopScope): Promise<VendorCommissionListDto> {
    return this.commissions.vendorCommissions(scope);
  }
}
