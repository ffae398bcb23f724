import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put, Query } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Scope, V1Auth } from '../common/auth/auth.decorators';
import type { Principal } from '../common/auth/principal';
import { ApiV1Errors, notFound, USER_CONFLICT } from '../common/http/api-errors.decorator';
import type { ShopScope } from '../common/tenancy';
import { CreateUserDto, ReplaceUserCredentialsDto } from './dto/user.dto';
import { DeleteMessageDto, UserDto, UserListDto, UserMessageDto } from './dto/user-response.dto';
import { UsersService } from './users.service';
import { ObjectIdParam } from '../common/http/params';
import { OffsetPageQueryDto } from '../common/pagination';
import { Idempotent } from '../idempotency/idempotent.decorator';

/** Vendor portal users (spec §4.4). Shop token only: a merchant token gets 403 here (it has /v2/users). */
@ApiTags('Users')
@V1Auth('shop')
@Controller('v1/users')
export class UsersV1Controller {
  constructor(private readonly users: UsersService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    operationId: 'createUser',
    summary: 'Create a vendor portal user',
    description:
      'vendorId must be a vendor of this shop (else 422); the email is lowercased and unique per shop (409). ' +
      'sendEmail: true sends the invitation email, which contains the plaintext password. No response ever ' +
      'contains the password or its hash.',
  })
  @ApiOkResponse({ type: UserMessageDto })
  @ApiV1Errors(400, USER_CONFLICT, 422)
  @Idempotent('v1')
  create(
    @Scope() scope: ShopScope,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateUserDto,
  ): Promise<UserMessageDto> {
    return this.users.create(scope, body, principal.shopDomain);
  }

  @Get()
  @ApiOperation({
    operationId: 'listUsers',
    summary: "The shop's portal users, newest first, a page at a time",
    description:
      'Paged like every v1 list: `limit` 1–250 (default 100), `offset` (default 0); `nextOffset` is null on the ' +
      'last page, `total` counts every user of the shop.',
  })
  @ApiOkResponse({ type: UserListDto })
  @ApiV1Errors(422)
  list(@Scope() scope: ShopScope, @Query() page: OffsetPageQueryDto): Promise<UserListDto> {
    return this.users.list(scope, page);
  }

  @Get(':userId')
  @ApiOperation({ operationId: 'getUser', summary: 'One user (without the password)' })
  @ObjectIdParam('userId', '6740c7d3e4b0f15b3c9d0a31', 'User id')
  @ApiOkResponse({ type: UserDto })
  @ApiV1Errors(notFound('User'))
  get(@Scope() scope: ShopScope, @Param('userId') userId: string): Promise<UserDto> {
    return this.users.get(scope, userId);
  }

  @Put(':userId')
  @ApiOperation({ operationId: 'replaceUser', summary: 'Replace the email and password (both required)' })
  @ObjectIdParam('userId', '6740c7d3e4b0f15b3c9d0a31', 'User id')
  @ApiOkResponse({ type: UserMessageDto })
  @ApiV1Errors(400, notFound('User'), USER_CONFLICT, 422)
  async replace(
    @Scope() scope: ShopScope,
    @Param('userId') userId: string,
    @Body() body: ReplaceUserCredentialsDto,
  ): Promise<UserMessageDto> {
    return { message: 'User updated', user: await this.users.replaceCredentials(scope, userId, body) };
  }

  @Delete(':userId')
  @ApiOperation({
    operationId: 'deleteUser',
    summary: 'Delete a portal user',
    description: 'The user can no longer sign in, and its tokens are refused from the next request on.',
  })
  @ObjectIdParam('userId', '6740c7d3e4b0f15b3c9d0a31', 'User id')
  @ApiOkResponse({ type: DeleteMessageDto })
  @ApiV1Errors(404)
  async remove(@Scope() scope: ShopScope, @Param('userId') userId: string): Promise<DeleteMessageDto> {
    await this.users.delete(scope, userId);
    return { message: 'User deleted' };
  }
}
