import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, Matches } from 'class-validator';
import { EndDayParam, StartDayParam } from '../../common/dates/day-range';
import { OBJECT_ID_PATTERN } from '../../common/http/params';
import { CursorPageQueryDto, OffsetPageQueryDto, PageInfoDto } from '../../common/pagination';
import {
  AUDIT_ACTIONS,
  AUDIT_ACTOR_KINDS,
  AUDIT_RESOURCE_TYPES,
  type AuditAction,
  type AuditActorKind,
  type AuditResourceType,
} from '../audit-actions';

const ID_RE = new RegExp(OBJECT_ID_PATTERN);

/** An optional filter on one of a fixed set of values. */
const enumFilter = (values: readonly string[], description: string) => () =>
  applyDecorators(ApiPropertyOptional({ enum: values, description }), IsOptional(), IsIn(values));

/** An optional filter on a record id (24 hexadecimal characters). */
const idFilter = (name: string, description: string) => () =>
  applyDecorators(
    ApiPropertyOptional({ pattern: OBJECT_ID_PATTERN, minLength: 24, maxLength: 24, description }),
    IsOptional(),
    IsString(),
    Matches(ID_RE, { message: `${name} must be a 24-character hex id` }),
  );

/** The filters both lists share (every combination is allowed), one decorator per parameter. */
const Filter = {
  resourceType: enumFilter(AUDIT_RESOURCE_TYPES, 'Only events on this kind of resource'),
  resourceId: idFilter('resourceId', 'Only events on this resource (its id)'),
  actorKind: enumFilter(AUDIT_ACTOR_KINDS, 'Only events by this kind of credential'),
  actorId: idFilter(
    'actorId',
    'Only events by this actor: a shop id (shop token), merchant key id or portal user id',
  ),
  action: enumFilter(AUDIT_ACTIONS, 'Only this action'),
  start: () => StartDayParam('Events on or after this UTC calendar day (inclusive from 00:00:00.000Z)'),
  end: () => EndDayParam('Events on or before this UTC calendar day (inclusive up to 23:59:59.999Z)'),
};

export interface AuditEventQuery {
  resourceType?: AuditResourceType;
  resourceId?: string;
  actorKind?: AuditActorKind;
  actorId?: string;
  action?: AuditAction;
  start?: string;
  end?: string;
}

export class AuditEventListQueryDto extends OffsetPageQueryDto implements AuditEventQuery {
  @Filter.resourceType() resourceType?: AuditResourceType;
  @Filter.resourceId() resourceId?: string;
  @Filter.actorKind() actorKind?: AuditActorKind;
  @Filter.actorId() actorId?: string;
  @Filter.action() action?: AuditAction;
  @Filter.start() start?: string;
  @Filter.end() end?: string;
}

export class AuditEventPageQueryDto extends CursorPageQueryDto implements AuditEventQuery {
  @Filter.resourceType() resourceType?: AuditResourceType;
  @Filter.resourceId() resourceId?: string;
  @Filter.actorKind() actorKind?: AuditActorKind;
  @Filter.actorId() actorId?: string;
  @Filter.action() action?: AuditAction;
  @Filter.start() start?: string;
  @Filter.end() end?: string;
}

export class AuditActorDto {
  @ApiProperty({ enum: AUDIT_ACTOR_KINDS, example: 'merchant' })
  kind!: AuditActorKind;
  @ApiProperty({
    description: 'Shop id (shop token), merchant key id (merchant token) or portal user id (vendor token)',
    example: '6740b9f1c2a4e15b3c9d0a11',
  })
  id!: string;
}

export class AuditResourceDto {
  @ApiProperty({ enum: AUDIT_RESOURCE_TYPES, example: 'vendor' })
  type!: AuditResourceType;
  @ApiProperty({ example: '6740c1a2e4b0f15b3c9d0a21' })
  id!: string;
}

export class AuditEventDto {
  @ApiProperty({ example: '6745e0a1b2c3d4e5f6a7b8c9' })
  _id!: string;
  @ApiProperty({ type: String, format: 'date-time', example: '2026-11-21T10:00:00.000Z' })
  at!: string;
  @ApiProperty({ type: AuditActorDto })
  actor!: AuditActorDto;
  @ApiProperty({ enum: AUDIT_ACTIONS, example: 'vendor.update' })
  action!: AuditAction;
  @ApiProperty({ type: AuditResourceDto })
  resource!: AuditResourceDto;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'The changed fields before the write (null for a create); never a secret',
    example: { commissionAmount: 10 },
  })
  before!: Record<string, unknown> | null;
  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    nullable: true,
    description: 'The changed fields after the write (null for a delete); never a secret',
    example: { commissionAmount: 12 },
  })
  after!: Record<string, unknown> | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      "Our id of the request that made the change (answered as `x-request-id` when the caller sent none or a malformed one; never the caller's)",
    example: '0b6f5c1e-3f0e-4f4e-9a55-6a8d8f1e2c3b',
  })
  requestId!: string | null;
  @ApiProperty({
    type: String,
    nullable: true,
    description:
      'The `x-request-id` the caller sent with that request, if well-formed (1–128 of A–Z a–z 0–9 . _ : -; echoed in the answer), kept apart from ours',
    pattern: '^[A-Za-z0-9._:-]{1,128}$',
    maxLength: 128,
    example: 'checkout-7f3a',
  })
  clientRequestId!: string | null;
}

export class AuditEventListDto {
  @ApiProperty({ example: 1 })
  total!: number;
  @ApiProperty({ type: Number, nullable: true, example: null })
  nextOffset!: number | null;
  @ApiProperty({ type: [AuditEventDto] })
  events!: AuditEventDto[];
}

export class AuditEventsPageDto {
  @ApiProperty({ type: [AuditEventDto] })
  events!: AuditEventDto[];
  @ApiProperty({ type: PageInfoDto })
  pageInfo!: PageInfoDto;
  @ApiProperty({ type: Number, nullable: true, example: 1 })
  totalCount!: number | null;
}

export class AuditEventsPageEnvelopeDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;
  @ApiProperty({ type: AuditEventsPageDto })
  data!: AuditEventsPageDto;
}
