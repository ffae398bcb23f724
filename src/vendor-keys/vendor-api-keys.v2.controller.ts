import { Body, Controller, Delete, Get, Param, Post, Query } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Scope, V2Auth } from '../common/auth/auth.decorators';
import { actorOf, type Principal } from '../common/auth/principal';
import { ok, V2Envelope } from '../common/http/envelope';
import { CursorPageQueryDto } from '../common/pagination';
import type { ShopScope } from '../common/tenancy';
import {
  CreatedVendorApiKeyDto,
  CreateVendorApiKeyDto,
  VendorApiKeyDto,
  VendorApiKeysPageDto,
} from './dto/vendor-api-key.dto';
import {
  CreateVendorApiKeyOperation,
  ListVendorApiKeysOperation,
  RevokeVendorApiKeyOperation,
} from './vendor-api-keys.operations';
import { VendorApiKeysService } from './vendor-api-keys.service';

/** V2 administration of a vendor's API keys: merchant or shop token; a vendor token → 403. */
@ApiTags('Vendor API keys')
@V2Auth('merchant', 'shop')
@Controller('v2/vendors/:id/api-keys')
export class VendorApiKeysV2Controller {
  constructor(private readonly keys: VendorApiKeysService) {}

  @Post()
  @CreateVendorApiKeyOperation('v2')
  async create(
    @Scope() scope: ShopScope,
    @CurrentPrincipal() principal: Principal,
    @Param('id') id: string,
    @Body() body: CreateVendorApiKeyDto,
  ): Promise<V2Envelope<CreatedVendorApiKeyDto>> {
    return ok(await this.keys.create(scope, id, body, actorOf(principal)));
  }

  @Get()
  @ListVendorApiKeysOperation('v2')
  async list(
    @Scope() scope: ShopScope,
    @Param('id') id: string,
    @Query() query: CursorPageQueryDto,
  ): Promise<V2Envelope<VendorApiKeysPageDto>> {
    return ok(await this.keys.page(scope, id, query));
  }

  @Delete(':keyId')
  @RevokeVendorApiKeyOperation('v2')
  async revoke(
    @Scope() scope: ShopScope,
    @Param('id') id: string,
    @Param('keyId') keyId: string,
  ): Promise<V2Envelope<VendorApiKeyDto>> {
    return ok((await this.keys.revoke(scope, id, keyId)).apiKey);
  }
}
