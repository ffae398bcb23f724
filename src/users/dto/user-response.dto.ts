import { ApiProperty } from '@nestjs/swagger';
import { VENDOR_SCOPES, type VendorScope } from '../../common/auth/scopes';
import { PageInfoDto } from '../../common/pagination';

/** A vendor portal user as every endpoint returns it: never the password or its hash. */
export class UserDto {
  @ApiProperty({ example: '6740c7d3e4b0f15b3c9d0a31' })
  _id!: string;
  @ApiProperty({ description: 'Stored lowercased; unique per shop', example: 'jane@acme.example' })
  email!: string;
  @ApiProperty({ enum: ['vendor'], example: 'vendor' })
  type!: 'vendor';
  @ApiProperty({ example: '6740c1a2e4b0f15b3c9d0a21' })
  vendorId!: string;
  @ApiProperty({ description: 'Only approved users can sign in', example: true })
  approved!: boolean;
  @ApiProperty({ example: '6740b9f1c2a4e15b3c9d0a10' })
  shopId!: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'When the last invitation email was sent; null when none was',
    example: '2026-11-21T10:00:00.000Z',
  })
  invitationDate!: string | null;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-21T10:00:00.000Z' })
  createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-21T10:00:00.000Z' })
  updatedAt!: string;
  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Last successful sign-in; null until the first',
    example: null,
  })
  lastLoggedIn!: string | null;
}

export class UserMessageDto {
  @ApiProperty({ example: 'User created' })
  message!: string;
  @ApiProperty({ type: UserDto })
  user!: UserDto;
}

/** DELETE /v1/users/{userId}. */
export class DeleteMessageDto {
  @ApiProperty({ example: 'User deleted' })
  message!: string;
}

/** GET /v1/users item (spec §4.4). */
export class UserListItemDto {
  @ApiProperty({ example: '6740c7d3e4b0f15b3c9d0a31' })
  userId!: string;
  @ApiProperty({ example: '6740c1a2e4b0f15b3c9d0a21' })
  vendorId!: string;
  @ApiProperty({ type: String, nullable: true, example: 'acme apparel' })
  vendorName!: string | null;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-21T10:00:00.000Z' })
  createdAt!: string;
  @ApiProperty({ type: String, format: 'date-time', nullable: true, example: null })
  lastLoggedIn!: string | null;
  @ApiProperty({ example: 'jane@acme.example' })
  email!: string;
}

/** The spec's `{users}` list, paged like every v1 list (DESIGN §5): `total` and `nextOffset` added. */
export class UserListDto {
  @ApiProperty({ description: 'Users of the shop in all', example: 1 })
  total!: number;
  @ApiProperty({ type: Number, nullable: true, description: 'null on the last page', example: null })
  nextOffset!: number | null;
  @ApiProperty({ type: [UserListItemDto] })
  users!: UserListItemDto[];
}

/** V2 user: the full record plus the vendor's name. */
export class V2UserDto extends UserDto {
  @ApiProperty({ type: String, nullable: true, example: 'acme apparel' })
  vendorName!: string | null;
  @ApiProperty({
    type: [String],
    enum: VENDOR_SCOPES,
    description: 'The vendor scopes the user holds (users created before permissions existed: every scope)',
    example: ['orders:read', 'fulfillments:write'],
  })
  permissions!: VendorScope[];
}

export class UserEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: V2UserDto })
  data!: V2UserDto;
}

export class UsersPageDto {
  @ApiProperty({ type: [V2UserDto] })
  users!: V2UserDto[];
  @ApiProperty({ type: PageInfoDto })
  pageInfo!: PageInfoDto;
  @ApiProperty({ type: Number, nullable: true, example: 2 })
  totalCount!: number | null;
}

export class UsersPageEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: UsersPageDto })
  data!: UsersPageDto;
}

export class DeletedUserDto {
  @ApiProperty({ example: '6740c7d3e4b0f15b3c9d0a31' })
  _id!: string;
  @ApiProperty({ enum: [true], example: true })
  deleted!: true;
}

export class DeletedUserEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: DeletedUserDto })
  data!: DeletedUserDto;
}
