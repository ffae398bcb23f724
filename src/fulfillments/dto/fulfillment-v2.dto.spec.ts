import { ValidationError } from '../../common/errors';
import { createValidationPipe } from '../../common/http/validation';
import { CreateVendorFulfillmentDto, UpdateFulfillmentDto } from './fulfillment-v2.dto';

/** The vendor bodies reuse the v1 tracking fields: the v1 rules must hold on them, through the app's pipe. */
describe('vendor fulfilment bodies (composed from the v1 body)', () => {
  const pipe = createValidationPipe();
  const fields = async (metatype: new () => object, value: unknown) => {
    const err = await pipe.transform(value, { type: 'body', metatype }).catch((e: unknown) => e);
    if (!(err instanceof ValidationError)) return null;
    return Object.keys((err.details as { fields: Record<string, string[]> }).fields).sort();
  };
  const tracking = { trackingNumber: '1Z', shippingCarrier: 'UPS', trackingUrl: 'https://t.example/1Z' };

  it('create: ids, then the three tracking fields required with their limits; notifyCustomer optional', async () => {
    expect(await fields(CreateVendorFulfillmentDto, { lineItemIds: ['a'], ...tracking })).toBeNull();
    expect(
      await fields(CreateVendorFulfillmentDto, { lineItemIds: ['a', 'a'], notifyCustomer: 'yes' }),
    ).toEqual(['lineItemIds', 'notifyCustomer', 'shippingCarrier', 'trackingNumber', 'trackingUrl']);
    expect(
      await fields(CreateVendorFulfillmentDto, {
        lineItemIds: ['a'],
        ...tracking,
        trackingNumber: '',
        shippingCarrier: 'x'.repeat(256),
        trackingUrl: 'u'.repeat(2049),
      }),
    ).toEqual(['shippingCarrier', 'trackingNumber', 'trackingUrl']);
  });

  it('update: every field optional, but a field sent keeps the v1 rules', async () => {
    expect(await fields(UpdateFulfillmentDto, {})).toBeNull();
    expect(await fields(UpdateFulfillmentDto, { shippingCarrier: 'DHL' })).toBeNull();
    expect(
      await fields(UpdateFulfillmentDto, {
        trackingNumber: '',
        shippingCarrier: 'x'.repeat(256),
        trackingUrl: 7,
        notifyCustomer: 1,
      }),
    ).toEqual(['notifyCustomer', 'shippingCarrier', 'trackingNumber', 'trackingUrl']);
  });
});
