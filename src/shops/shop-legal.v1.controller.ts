import { Body, Controller, Get, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Scope, V1Auth } from '../common/auth/auth.decorators';
import { ApiV1Errors } from '../common/http/api-errors.decorator';
import type { ShopScope } from '../common/tenancy';
import { ShopLegalResponseDto, UpdatedShopLegalResponseDto, UpdateShopLegalDto } from './dto/legal.dto';
import { ShopLegalService } from './shop-legal.service';

@ApiTags('Shop')
@V1Auth('shop')
@Controller('v1/shop/legal')
export class ShopLegalV1Controller {
  constructor(private readonly legal: ShopLegalService) {}

  @Get()
  @ApiOperation({
    operationId: 'getShopLegal',
    summary: 'The shop as issuer of documents: legal name, address, VAT and tax ids, number prefixes',
    description:
      'Defaults: no legal name, address or ids, prefixes `INV-` (commission_invoice), `CN-` (credit_note), `SB-` ' +
      '(self_billed_invoice), selfBilling false. The tax number is never returned: `taxIdProvided` says whether ' +
      'one is stored and `taxIdLast4` shows its last 4 characters.',
  })
  @ApiOkResponse({ type: ShopLegalResponseDto })
  async get(@Scope() scope: ShopScope): Promise<ShopLegalResponseDto> {
    return { legal: await this.legal.get(scope) };
  }

  @Put()
  @ApiOperation({
    operationId: 'updateShopLegal',
    summary: 'Change the legal settings (only the given fields; null clears an optional one)',
    description:
      'The address is sent whole (line1, city, postalCode, country as ISO 3166-1 alpha-2; line2 and region ' +
      'optional). Prefixes: 1–10 characters of A–Z 0–9 - _ /, distinct across the three series (422 otherwise). ' +
      'The tax number is sealed at rest; omit it to keep the stored one. Documents already issued keep the ' +
      'details they were issued with. Audited (the tax number as a masked tail). 409 when another change of the ' +
      'prefixes landed between the read and the write.',
  })
  @ApiOkResponse({ type: UpdatedShopLegalResponseDto })
  @ApiV1Errors(
    400,
    { status: 409, message: 'The legal settings changed meanwhile; read them again and retry' },
    422,
  )
  async update(
    @Scope() scope: ShopScope,
    @Body() body: UpdateShopLegalDto,
  ): Promise<UpdatedShopLegalResponseDto> {
    return {
      message: 'Legal settings updated; documents issued from now on use them',
      legal: await this.legal.update(scope, body),
    };
  }
}
