import { Body, Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Scope, V1Auth } from '../common/auth/auth.decorators';
import { actorOf, type Principal } from '../common/auth/principal';
import { OffsetPageQueryDto } from '../common/pagination';
import type { ShopScope } from '../common/tenancy';
import {
  CreatedVendorApiKeyDto,
  CreateVendorApiKeyDto,
  RevokedVendorApiKeyDto,
  VendorApiKeyListDto,
} from './dto/vendor-api-key.dto';
import {
  CreateVendorApiKeyOperation,
  ListVendorApiKeysOperation,
  RevokeVendorApiKeyOperation,
} from './vendor-api-keys.operations';
import { VendorApiKeysService } from './vendor-api-keys.service';

/** The shop manages a vendor's API keys (DESIGN §12) with its shop token. */
@ApiTags('Vendor API keys')
@V1Auth('shop')
@Controller('v1/vendors/:id/api-keys')
export class VendorApiKeysV1Controller {
  constructor(private readonly keys: VendorApiKeysService) {}

  @Post()
  @CreateVendorApiKeyOperation('v1')
  create(
    @Scope() scope: ShopScope,
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: CreateVendorApiKeyDto,
  ): Promise<CreatedVendorApiKeyDto> {
    return this.keys.create(scope, id, body, actorOf(principal));
  }

  @Get()
  @ListVendorApiKeysOperation('v1')
  list(
    @Scope() scope: ShopScope,
    @Param('id') id: string,
    @Query() page: OffsetPageQueryDto,
  ): Promise<VendorApiKeyListDto> {
    return this.keys.list(scope, id, page);
  }

  @Delete(':keyId')
  @RevokeVendorApiKeyOperation('v1')
  revoke(
    @Scope() scope: ShopScope,
    @Param('id') id: string,
    @Param('keyId') keyId: string,
  ): Promise<RevokedVendorApiKeyDto> {
    return this.keys.revoke(scope, id, keyId);
  }
}
