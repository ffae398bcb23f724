import { Body, Controller, Delete, Get, HttpCode, Param, Post, Put } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Scope, V1Auth } from '../common/auth/auth.decorators';
import type { Principal } from '../common/auth/principal';
import { ApiV1Errors } from '../common/http/api-errors.decorator';
import type { ShopScope } from '../common/tenancy';
import { CreateUserDto, ReplaceUserCredentialsDto } from './dto/user.dto';
import { DeleteMessageDto, UserDto, UserListDto, UserMessageDto } from './dto/user-response.dto';
import { UsersService } from './users.service';
import { Idempotent } from '../idempotency/idempotent.decorator';

const USER_ID = { name: 'userId', example: '6740c7d3e4b0f15b3c9d0a31' };

/** Vendor portal users (spec §4.4). Shop token only: a merchant token gets 403 here (it has /v2/users). */
@ApiTags('Users')
@V1Auth('shop')
@Controller('v1/users')
export class UsersV1Controller {
  constructor(private readonly users: UsersService) {}

  @Post()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create a vendor portal user',
    description:
      'vendorId must be a vendor of this shop (else 422); the email is lowercased and unique per shop (409). ' +
      'sendEmail: true sends the invitation email, which contains the plaintext password. No response ever ' +
      'contains the password or its hash.',
  })
  @ApiOkResponse({ type: UserMessageDto })
  @Idempotent('v1')
  @ApiV1Errors(400, 409, 422)
  create(
    @Scope() scope: ShopScope,
    @CurrentPrincipal() principal: Principal,
    @Body() body: CreateUserDto,
  ): Promise<UserMessageDto> {
    return this.users.create(scope, body, principal.shopDomain);
  }

  @Get()
  @ApiOperation({ summary: 'Every portal user of the shop, newest first' })
  @ApiOkResponse({ type: UserListDto })
  list(@Scope() scope: ShopScope): Promise<UserListDto> {
    return this.users.list(scope);
  }

  @Get(':userId')
  @ApiOperation({ summary: 'One user (without the password)' })
  @ApiParam(USER_ID)
  @ApiOkResponse({ type: UserDto })
  @ApiV1Errors(404)
  get(@Scope() scope: ShopScope, @Param('userId') userId: string): Promise<UserDto> {
    return this.users.get(scope, userId);
  }

  @Put(':userId')
  @ApiOperation({ summary: 'Replace the email and password (both required)' })
  @ApiParam(USER_ID)
  @ApiOkResponse({ type: UserMessageDto })
  @ApiV1Errors(400, 404, 409, 422)
  async replace(
    @Scope() scope: ShopScope,
    @Param('userId') userId: string,
    @Body() body: ReplaceUserCredentialsDto,
  ): Promise<UserMessageDto> {
    return { message: 'User updated', user: await this.users.replaceCredentials(scope, userId, body) };
  }

  @Delete(':userId')
  @ApiOperation({
    summary: 'Delete a portal user',
    description: 'The user can no longer sign in, and its tokens are refused from the next request on.',
  })
  @ApiParam(USER_ID)
  @ApiOkResponse({ type: DeleteMessageDto })
  @ApiV1Errors(404)
  async remove(@Scope() scope: ShopScope, @Param('userId') userId: string): Promise<DeleteMessageDto> {
    await this.users.delete(scope, userId);
    return { message: 'User deleted' };
  }
}
