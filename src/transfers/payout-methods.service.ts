import { Injectable } from '@nestjs/common';
import { AuditTrail } from '../audit/audit-trail.service';
import { NotFoundError, ValidationError } from '../common/errors';
import { ShopScope, toObjectId } from '../common/tenancy';
import { VendorsRepository } from '../vendors/vendors.repository';
import { PayoutMethodDto, SetPayoutMethodDto } from './dto/payout-method.dto';
import { PayoutMethod, PaypalRecipientType } from './payout-method.schema';
import { PayoutMethodFields, PayoutMethodsRepository } from './payout-methods.repository';
import { toPayoutMethodResponse } from './transfer.mapper';

const ACCOUNT_ID = /^acct_[A-Za-z0-9]{1,64}$/;
/** Format only (reachability is the provider's business): PayPal's own limits per recipient type. */
const RECEIVER_FORMATS: Record<PaypalRecipientType, { re: RegExp; what: string }> = {
  EMAIL: { re: /^[^\s@]{1,64}@[^\s@]+\.[^\s@]{2,}$/, what: 'an email address' },
  PAYPAL_ID: { re: /^[A-Z0-9]{13}$/, what: 'a 13-character PayPal payer id (upper-case letters and digits)' },
  PHONE: { re: /^\+?[0-9]{6,15}$/, what: 'a phone number of 6-15 digits, optionally with a leading +' },
};

/** Where the rail sends a vendor's money (copied onto each transfer when it is created). */
export interface VendorPayoutTarget {
  type: PayoutMethod['type'];
  destination: string | null;
  recipientType: string | null;
}

/** A vendor's payout method (DESIGN §10): set by the shop or merchant, read by the vendor itself too. */
@Injectable()
export class PayoutMethodsService {
  constructor(
    private readonly methods: PayoutMethodsRepository,
    private readonly vendors: VendorsRepository,
    private readonly audit: AuditTrail,
  ) {}

  async get(scope: ShopScope, vendorId: string): Promise<PayoutMethodDto> {
    const vendor = await this.vendor(scope, vendorId);
    return toPayoutMethodResponse(String(vendor._id), await this.methods.findForVendor(scope, vendor._id));
  }

  async set(scope: ShopScope, vendorId: string, body: SetPayoutMethodDto): Promise<PayoutMethodDto> {
    const vendor = await this.vendor(scope, vendorId);
    const fields = validated(body);
    const current = await this.methods.findForVendor(scope, vendor._id);
    const stamp = this.audit.begin();
    const before = view(current);
    const event = this.audit.changed(
      scope,
      stamp,
      'payout_method.update',
      { type: 'payout_method', id: vendor._id },
      before,
      { ...fields },
    );
    const saved = await this.methods.set(scope, vendor._id, fields, stamp, event);
    await this.audit.commit(scope, this.methods.outbox, stamp, [event], [saved._id]);
    return toPayoutMethodResponse(String(vendor._id), saved);
  }

  /** The vendor's current target; a vendor without a method is paid manually. */
  async targetOf(scope: ShopScope, vendorId: string): Promise<VendorPayoutTarget> {
    const id = toObjectId(vendorId);
    const m = id ? await this.methods.findForVendor(scope, id) : null;
    if (!m || m.type === 'manual') return { type: 'manual', destination: null, recipientType: null };
    if (m.type === 'stripe_connect') return { type: m.type, destination: m.accountId, recipientType: null };
    return { type: m.type, destination: m.receiver, recipientType: m.recipientType };
  }

  private async vendor(scope: ShopScope, vendorId: string) {
    const vendor = await this.vendors.findById(scope, vendorId);
    if (!vendor) throw new NotFoundError('Vendor');
    return vendor;
  }
}

function view(m: PayoutMethod | null): Record<string, unknown> {
  return {
    type: m?.type ?? 'manual',
    accountId: m?.accountId ?? null,
    receiver: m?.receiver ?? null,
    recipientType: m?.recipientType ?? null,
  };
}

/** The stored fields of a valid body; 422 naming each field that is wrong for its type. */
export function validated(body: SetPayoutMethodDto): PayoutMethodFields {
  const fields: Record<string, string[]> = {};
  const bad = (f: string, m: string) => (fields[f] ??= []).push(m);
  const refuse = (f: 'accountId' | 'receiver' | 'recipientType') => {
    if (body[f] !== undefined) bad(f, `${f} is not used by the ${body.type} method`);
  };
  let out: PayoutMethodFields = { type: body.type, accountId: null, receiver: null, recipientType: null };
  if (body.type === 'manual') {
    refuse('accountId');
    refuse('receiver');
    refuse('recipientType');
  } else if (body.type === 'stripe_connect') {
    refuse('receiver');
    refuse('recipientType');
    if (!body.accountId) bad('accountId', 'accountId is required for stripe_connect');
    else if (!ACCOUNT_ID.test(body.accountId))
      bad('accountId', 'accountId must be a Stripe account id, acct_…');
    out = { ...out, accountId: body.accountId ?? null };
  } else {
    refuse('accountId');
    if (!body.recipientType)
      bad('recipientType', 'recipientType is required for paypal (EMAIL, PAYPAL_ID or PHONE)');
    if (!body.receiver) bad('receiver', 'receiver is required for paypal');
    else if (body.recipientType && !RECEIVER_FORMATS[body.recipientType].re.test(body.receiver.trim())) {
      bad('receiver', `receiver must be ${RECEIVER_FORMATS[body.recipientType].what}`);
    }
    out = { ...out, receiver: body.receiver?.trim() ?? null, recipientType: body.recipientType ?? null };
  }
  if (Object.keys(fields).length) {
    throw new ValidationError(Object.values(fields).flat().join('; '), { fields });
  }
  return out;
}
