import { model, Schema } from 'mongoose';
import { declaredIndex } from './index-hints';

describe('declaredIndex (hints name declared indexes only)', () => {
  const schema = new Schema({ shopId: String, vendorId: String, tallyDirt: Number });
  schema.index({ shopId: 1, vendorId: 1, tallyDirt: 1 });
  const Rows = model('HintedRow', schema);

  it('returns the key of an index the schema declares', () => {
    expect(declaredIndex(Rows, { shopId: 1, vendorId: 1, tallyDirt: 1 })).toEqual({
      shopId: 1,
      vendorId: 1,
      tallyDirt: 1,
    });
  });

  it('refuses a key the schema does not declare (another order, a prefix, another direction)', () => {
    expect(() => declaredIndex(Rows, { vendorId: 1, shopId: 1, tallyDirt: 1 })).toThrow(
      /HintedRow declares no index/,
    );
    expect(() => declaredIndex(Rows, { shopId: 1, vendorId: 1 })).toThrow(/declares no index/);
    expect(() => declaredIndex(Rows, { shopId: 1, vendorId: 1, tallyDirt: -1 })).toThrow(/declares no index/);
  });
});
