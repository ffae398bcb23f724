import { Injectable } from '@nestjs/common';
import { Types } from 'mongoose';
import { AuditTrail } from '../audit/audit-trail.service';
import { NotFoundError, UnauthorizedError } from '../common/errors';
import type { ShopScope } from '../common/tenancy';
import { ShopsRepository } from './shops.repository';
import { ShopsService } from './shops.service';

/** The names of the custom vendor profile fields of the caller's shop (spec §2.2, §4.3). */
@Injectable()
export class ShopProfileService {
  constructor(
    private readonly shops: ShopsService,
    private readonly repository: ShopsRepository,
    private readonly audit: AuditTrail,
  ) {}

  /** The spec answers 401 `{error}` when the shop has not configured any (§4.3, §7). */
  async get(scope: ShopScope): Promise<string[]> {
    const shop = await this.shops.getById(scope.shopId);
    if (!shop.profileFields) throw new UnauthorizedError('This shop has no vendor profile configured');
    return shop.profileFields;
  }

  async set(scope: ShopScope, fields: string[]): Promise<string[]> {
    const current = await this.shops.getById(scope.shopId);
    const stamp = this.audit.begin();
    const event = this.audit.changed(
      scope,
      stamp,
      'shop.profile.update',
      { type: 'shop', id: scope.shopId },
      { profileFields: current.profileFields ?? null },
      { profileFields: fields },
    );
    const shop = await this.repository.update(scope.shopId, { profileFields: fields }, stamp, event);
    if (!shop) throw new NotFoundError('Shop');
    await this.audit.commit(
      scope,
      this.repository.outbox,
      stamp,
      [event],
      [new Types.ObjectId(scope.shopId)],
    );
    return shop.profileFields ?? [];
  }
}
