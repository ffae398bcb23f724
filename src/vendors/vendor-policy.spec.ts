import { Types } from 'mongoose';
import { isActiveVendor, isPayable, normaliseVendorName } from './vendor-policy';

const vendor = (active?: boolean) =>
  ({ _id: new Types.ObjectId(), vendorName: 'acme', active }) as {
    _id: Types.ObjectId;
    vendorName: string;
    active: boolean;
  };

describe('vendor policy', () => {
  it('normalises a store line’s vendor field as names are stored', () => {
    expect(normaliseVendorName('  Acme Apparel ')).toBe('acme apparel');
    expect(normaliseVendorName('   ')).toBeNull();
    expect(normaliseVendorName(null)).toBeNull();
  });

  it('counts a record without the flag as active', () => {
    expect(isActiveVendor(vendor(undefined))).toBe(true);
    expect(isActiveVendor(vendor(true))).toBe(true);
    expect(isActiveVendor(vendor(false))).toBe(false);
  });

  it('pays active and deactivated vendors alike, never an unknown one', () => {
    expect(isPayable(vendor(true))).toBe(true);
    expect(isPayable(vendor(false))).toBe(true);
    expect(isPayable(null)).toBe(false);
    expect(isPayable(undefined)).toBe(false);
  });
});
