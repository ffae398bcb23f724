import { Types } from 'mongoose';
import {
  collapseInOrder,
  countUpload,
  newSkuRecords,
  planSkuUpdates,
  StoredSku,
  validateSkuElements,
} from './sku-upload';

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
    [
      { sku: 'A', costOfGoods: -0.01 },
      'A',
      'costOfGoods must be a number >= 0 and <= 1000000000 with at most 2 decimal places',
    ],
    [
      { sku: 'A', costOfGoods: 'x' },
      'A',
      'costOfGoods must be a number >= 0 and <= 1000000000 with at most 2 decimal places',
    ],
    [
      { sku: 'A', costOfGoods: 1e300 },
      'A',
      'costOfGoods must be a number >= 0 and <= 1000000000 with at most 2 decimal places',
    ],
    [
      { sku: 'A', costOfGoods: 1.001 },
      'A',
      'costOfGoods must be a number >= 0 and <= 1000000000 with at most 2 decimal places',
    ],
    [
      { sku: 'A', commissionType: 'flat', commissionRate: 1.001 },
      'A',
      'commissionRate must have at most 2 decimal places',
    ],
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
      'commissionType must be one of percentage, flat; costOfGoods must be a number >= 0 and <= 1000000000 with at most 2 decimal places',
    );
  });
});

describe('collapsing, counting and planning', () => {
  const collapsed = collapseInOrder(
    validateSkuElements([
      { sku: 'NEW', commissionRate: 5, costOfGoods: 3 },
      { sku: 'NEW', commissionType: 'flat', commissionRate: 1 },
      { sku: 'NEW', commissionRate: 7 },
      { sku: 'OLD', commissionRate: 9 },
      { sku: 'OLD', commissionRate: 9 },
    ]).valid,
  );

  it('applies elements in order: the last commission wins, an earlier cost of goods survives', () => {
    expect(collapsed.get('NEW')).toEqual({
      sku: 'NEW',
      occurrences: 3,
      values: { commissionType: 'percentage', commissionAmount: 7, costOfGoods: 3 },
    });
    expect(newSkuRecords(collapsed)).toEqual([
      { sku: 'NEW', commissionType: 'percentage', commissionAmount: 7, costOfGoods: 3 },
      { sku: 'OLD', commissionType: 'percentage', commissionAmount: 9, costOfGoods: null },
    ]);
  });

  it('counts a new SKU as one create then updates, an existing one as updates', () => {
    expect(countUpload(collapsed, new Set(['OLD']))).toEqual({ created: 1, updated: 4 });
    expect(countUpload(collapsed, new Set())).toEqual({ created: 2, updated: 3 });
    expect(countUpload(collapsed, new Set(['NEW', 'OLD']))).toEqual({ created: 0, updated: 5 });
  });

  it('writes only the fields that change, nothing for an unchanged record, and reports missing ones', () => {
    const oldId = new Types.ObjectId();
    const stored = new Map<string, StoredSku>([
      ['OLD', { _id: oldId, sku: 'OLD', commissionType: 'flat', commissionAmount: 9, costOfGoods: 2 }],
    ]);
    expect(planSkuUpdates(collapsed, stored)).toEqual({
      updates: [{ _id: oldId, set: { commissionType: 'percentage' } }],
      missing: ['NEW'],
    });
    const same = new Map<string, StoredSku>([
      ['OLD', { _id: oldId, sku: 'OLD', commissionType: 'percentage', commissionAmount: 9, costOfGoods: 2 }],
    ]);
    const onlyOld = new Map([['OLD', collapsed.get('OLD')!]]);
    expect(planSkuUpdates(onlyOld, same)).toEqual({ updates: [], missing: [] });
  });

  it('gives a cost-only record (no commission) the uploaded commission', () => {
    const id = new Types.ObjectId();
    const stored = new Map<string, StoredSku>([
      ['S', { _id: id, sku: 'S', commissionType: null, commissionAmount: null, costOfGoods: 4 }],
    ]);
    const plan = planSkuUpdates(collapseInOrder(validateSkuElements([{ sku: 'S' }]).valid), stored);
    expect(plan.updates).toEqual([{ _id: id, set: { commissionType: 'percentage', commissionAmount: 0 } }]);
  });
});
