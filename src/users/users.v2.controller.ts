import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Scope, V2Auth } from '../common/auth/auth.decorators';
import type { Principal } from '../common/auth/principal';
import { ApiV2Errors, notFound, USER_CONFLICT } from '../common/http/api-errors.decorator';
import { ok, V2Envelope } from '../common/http/envelope';
import type { ShopScope } from '../common/tenancy';
import { CreateUserV2Dto, PatchUserDto, UserListQueryDto } from './dto/user.dto';
import {
  DeletedUserDto,
  DeletedUserEnvelopeDto,
  UserEnvelopeDto,
  UsersPageDto,
  UsersPageEnvelopeDto,
  V2UserDto,
} from './dto/user-response.dto';
import { UsersService } from './users.service';
import { ObjectIdParam } from '../common/http/params';
import { Idempotent } from '../idempotency/idempotent.decorator';

/** V2 merchant administration of portal users (spec §4.10): merchant or shop token; vendor token → 403. */
@ApiTags('Users')
@V2Auth('merchant', 'shop')
@Controller('v2/users')
export class UsersV2Controller {
  constructor(private readonly users: UsersService) {}

  @Get()
  @ApiOperation({
    operationId: 'listUsers',
    summary: 'Portal users, newest first (cursor paging), optionally of one vendor',
  })
  @ApiOkResponse({ type: UsersPageEnvelopeDto })
  @ApiV2Errors(422)
  async list(@Scope() scope: ShopScope, @Query() query: UserListQueryDto): Promise<V2Envelope<UsersPageDto>> {
    return ok(await this.users.page(scope, query));
  }

  @Post()
  @HttpCode(201)
  @ApiOperation({
    operationId: 'createUser',
    summary: 'Create a portal user',
    description: 'Same rules as POST /v1/users; `invitationDate` tells whether the invitation was sent.',
  })
  @ApiCreatedResponse({ type: UserEnvelopeDto })
  @ApiV2Errors(400, USER_CONFLICT, 422)
  @Idempotent('v2')
  async create(
    @Scope() scope: ShopScope,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateUserV2Dto,
  ): Promise<V2Envelope<V2UserDto>> {
    return ok(await this.users.createV2(scope, body, principal.shopDomain));
  }

  @Get(':id')
  @ApiOperation({ operationId: 'getUser', summary: 'One portal user' })
  @ObjectIdParam('id', '6740c7d3e4b0f15b3c9d0a31', 'User id')
  @ApiOkResponse({ type: UserEnvelopeDto })
  @ApiV2Errors(notFound('User'))
  async get(@Scope() scope: ShopScope, @Param('id') id: string): Promise<V2Envelope<V2UserDto>> {
    return ok(await this.users.getV2(scope, id));
  }

  @Patch(':id')
  @ApiOperation({
    operationId: 'updateUser',
    summary: 'Change email, password, approval and/or permissions',
    description:
      'approved: false stops sign-in and refuses the user’s tokens from the next request on. `permissions` ' +
      '(vendor scopes; an unknown scope → 422) apply from the next request of the user’s tokens.',
  })
  @ObjectIdParam('id', '6740c7d3e4b0f15b3c9d0a31', 'User id')
  @ApiOkResponse({ type: UserEnvelopeDto })
  @ApiV2Errors(400, notFound('User'), USER_CONFLICT, 422)
  async patch(
    @Scope() scope: ShopScope,
    @Param('id') id: string,
    @Body() body: PatchUserDto,
  ): Promise<V2Envelope<V2UserDto>> {
    return ok(await this.users.patch(scope, id, body));
  }

  @Delete(':id')
  @ApiOperation({
    operationId: 'deleteUser',
    summary: 'Delete a portal user; its tokens are refused from the next request on',
  })
  @ObjectIdParam('id', '6740c7d3e4b0f15b3c9d0a31', 'User id')
  @ApiOkResponse({ type: DeletedUserEnvelopeDto })
  @ApiV2Errors(notFound('User'))
  async delete(@Scope() scope: ShopScope, @Param('id') id: string): Promise<V2Envelope<DeletedUserDto>> {
    return ok(await this.users.delete(scope, id));
  }
}
