import { Types } from 'mongoose';
import { collapseInOrder, planSkuWrites, StoredSku, validateSkuElements } from './sku-upload';

describe('validateSkuElements', () => {
  it('applies the defaults and trims the sku', () => {
    const { valid, errors } = validateSkuElements([{ sku: '  A-1 ' }]);
    expect(errors).toEqual([]);
    expect(valid).toEqual([
      { index: 0, sku: 'A-1', values: { commissionType: 'percentage', commissionAmount: 0 } },
    ]);
  });

  it('keeps given values, accepts commissionAmount for commissionRate and null as not given', () => {
    const { valid } = validateSkuElements([
      { sku: 'A', commissionType: 'flat', commissionRate: 2.5, costOfGoods: 4 },
      { sku: 'B', commissionType: 'percentage', commissionAmount: 14 },
      { sku: 'C', commissionType: null, commissionRate: null, costOfGoods: null },
    ]);
    expect(valid.map((v) => v.values)).toEqual([
      { commissionType: 'flat', commissionAmount: 2.5, costOfGoods: 4 },
      { commissionType: 'percentage', commissionAmount: 14 },
      { commissionType: 'percentage', commissionAmount: 0 },
    ]);
  });

  it.each([
    [{ sku: '   ' }, '', 'sku must be a non-empty string'],
    [{ commissionRate: 1 }, '', 'sku must be a non-empty string'],
    [{ sku: 42 }, '42', 'sku must be a non-empty string'],
    [{ sku: 'x'.repeat(256) }, 'x'.repeat(256), 'sku must be at most 255 characters'],
    [{ sku: 'A', commissionType: 'fixed' }, 'A', 'commissionType must be one of percentage, flat'],
    [{ sku: 'A', commissionRate: -1 }, 'A', 'commissionRate must not be less than 0'],
    [{ sku: 'A', commissionRate: '10' }, 'A', 'commissionRate must be a number'],
    [
      { sku: 'A', commissionRate: 101 },
      'A',
      'commissionRate must not be greater than 100 for a percentage commission',
    ],
    [{ sku: 'A', costOfGoods: -0.01 }, 'A', 'costOfGoods must be a number >= 0'],
    [{ sku: 'A', costOfGoods: 'x' }, 'A', 'costOfGoods must be a number >= 0'],
    [{ sku: 'A', comissionRate: 5 }, 'A', 'unknown field(s): comissionRate'],
    [
      { sku: 'A', commissionRate: 1, commissionAmount: 2 },
      'A',
      'commissionRate and commissionAmount differ; send one of them',
    ],
    ['A', '', 'element must be an object with at least a sku'],
    [null, '', 'element must be an object with at least a sku'],
  ])('reports %j', (element, sku, error) => {
    const { valid, errors } = validateSkuElements([element]);
    expect(valid).toEqual([]);
    expect(errors).toEqual([{ index: 0, sku, error }]);
  });

  it('reports every problem of one element together', () => {
    const { errors } = validateSkuElements([{ sku: 'A', commissionType: 'x', costOfGoods: -1 }]);
    expect(errors[0].error).toBe(
      'commissionType must be one of percentage, flat; costOfGoods must be a number >= 0',
    );
  });
});

describe('collapseInOrder + planSkuWrites', () => {
  const el = (sku: string, values: Record<string, unknown>) => ({ sku, ...values });

  it('the last element wins, an earlier cost of goods survives, counts are one create then updates', () => {
    const { valid } = validateSkuElements([
      el('NEW', { commissionRate: 5, costOfGoods: 3 }),
      el('NEW', { commissionType: 'flat', commissionRate: 1 }),
      el('NEW', { commissionRate: 7 }),
      el('OLD', { commissionRate: 9 }),
      el('OLD', { commissionRate: 9 }),
    ]);
    const collapsed = collapseInOrder(valid);
    expect(collapsed.get('NEW')).toEqual({
      sku: 'NEW',
      occurrences: 3,
      values: { commissionType: 'percentage', commissionAmount: 7, costOfGoods: 3 },
    });
    const oldId = new Types.ObjectId();
    const stored = new Map<string, StoredSku>([
      ['OLD', { _id: oldId, sku: 'OLD', commissionType: 'flat', commissionAmount: 9, costOfGoods: 2 }],
    ]);
    expect(planSkuWrites(collapsed, stored)).toEqual({
      inserts: [{ sku: 'NEW', commissionType: 'percentage', commissionAmount: 7, costOfGoods: 3 }],
      updates: [{ _id: oldId, set: { commissionType: 'percentage' } }],
      created: 1,
      updated: 4,
    });
  });

  it('counts but does not write a record whose values do not change', () => {
    const id = new Types.ObjectId();
    const stored = new Map<string, StoredSku>([
      ['S', { _id: id, sku: 'S', commissionType: 'percentage', commissionAmount: 5, costOfGoods: 1 }],
    ]);
    const plan = planSkuWrites(
      collapseInOrder(validateSkuElements([{ sku: 'S', commissionRate: 5 }]).valid),
      stored,
    );
    expect(plan).toEqual({ inserts: [], updates: [], created: 0, updated: 1 });
  });

  it('a cost-only record (no commission) gets the uploaded commission', () => {
    const id = new Types.ObjectId();
    const stored = new Map<string, StoredSku>([
      ['S', { _id: id, sku: 'S', commissionType: null, commissionAmount: null, costOfGoods: 4 }],
    ]);
    const plan = planSkuWrites(collapseInOrder(validateSkuElements([{ sku: 'S' }]).valid), stored);
    expect(plan.updates).toEqual([{ _id: id, set: { commissionType: 'percentage', commissionAmount: 0 } }]);
  });
});
