import { Types } from 'mongoose';
import { assess, coverage, DeclaredIndex, verdict } from './index-coverage';
import { commandShape, documentsReturned, filterBranches } from './query-shape';
import { joinedRead, unionPart } from './read-together';

const ix = (collection: string, key: Array<[string, 1 | -1]>, unique = false): DeclaredIndex => ({
  collection,
  name: key.map(([f, d]) => `${f}_${d}`).join('_'),
  key,
  unique,
});

describe('query shapes', () => {
  it('splits a filter into equality and range fields, keeping no values', () => {
    const shopId = new Types.ObjectId();
    const [b] = filterBranches(
      {
        shopId,
        vendorId: { $in: [shopId] },
        createdAt: { $gte: new Date(), $lte: new Date() },
        active: { $ne: false },
        at: new Date(),
      },
      [['createdAt', -1]],
    );
    expect(b.eq.sort()).toEqual(['at', 'shopId', 'vendorId']);
    expect(b.range.sort()).toEqual(['active', 'createdAt']);
    expect(b.sort).toEqual([['createdAt', -1]]);
    expect(JSON.stringify(b)).not.toContain(String(shopId));
  });

  it('multiplies out $or (and flattens $and) into one branch per alternative', () => {
    const branches = filterBranches({
      shopId: 1,
      $and: [{ vendorId: 2 }],
      $or: [{ createdAt: { $lt: 1 } }, { createdAt: 1, _id: { $lt: 2 } }],
    });
    expect(branches.map((b) => [b.eq.sort(), b.range.sort()])).toEqual([
      [['shopId', 'vendorId'], ['createdAt']],
      [['createdAt', 'shopId', 'vendorId'], ['_id']],
    ]);
  });

  it('marks operators it does not model as opaque', () => {
    expect(filterBranches({ shopId: 1, $expr: { $gt: ['$a', '$b'] } })[0].opaque).toEqual(['$expr']);
  });

  it('reads the statements of every query command, and a Map sort', () => {
    expect(commandShape('insert', { insert: 'x' })).toBeNull();
    const find = commandShape('find', {
      find: 'vendors',
      filter: { shopId: 1 },
      sort: new Map([['createdAt', -1]]),
    });
    expect(find).toEqual({
      command: 'find',
      collection: 'vendors',
      statements: [{ branches: [{ eq: ['shopId'], range: [], sort: [['createdAt', -1]] }] }],
    });
    const update = commandShape('update', {
      update: 'li',
      updates: [{ q: { _id: 1 } }, { q: { shopId: 1, sku: 'a' } }],
    });
    expect(update!.statements).toHaveLength(2);
    const agg = commandShape('aggregate', {
      aggregate: 'li',
      pipeline: [{ $match: { shopId: 1 } }, { $sort: { at: 1 } }, { $group: { _id: null } }],
    });
    expect(agg!.statements[0].branches[0]).toEqual({ eq: ['shopId'], range: [], sort: [['at', 1]] });
  });

  it('reads every $unionWith part of an aggregation as a statement on its own collection', () => {
    const shopId = new Types.ObjectId();
    const parts = [
      unionPart(
        'v',
        'vendors',
        { vendorName: { $in: ['a', 'b'] }, shopId },
        { vendorName: 1 },
        { vendorName: 1 },
      ),
      unionPart('k', 'sku_commissions', { sku: { $in: ['s'] }, shopId }, { sku: 1 }),
    ];
    const agg = commandShape('aggregate', {
      aggregate: 'shops',
      pipeline: [{ $match: { _id: shopId } }, ...parts.map((p) => p.stage), { $unionWith: 'events' }],
    });
    expect(agg!.collection).toBe('shops');
    expect(agg!.statements).toEqual([
      { branches: [{ eq: ['_id'], range: [], sort: [] }] },
      {
        collection: 'vendors',
        branches: [
          { eq: ['vendorName', 'shopId'], multi: ['vendorName'], range: [], sort: [['vendorName', 1]] },
        ],
      },
      { collection: 'sku_commissions', branches: [{ eq: ['sku', 'shopId'], range: [], sort: [] }] },
      // a bare collection name: every document of it, a collection scan
      { collection: 'events', branches: [{ eq: [], range: [], sort: [] }] },
    ]);
  });

  it("reads a part's $lookup as a read of the joined collection by its foreign field", () => {
    const shopId = new Types.ObjectId();
    const join = joinedRead(
      'typeRules',
      'commission_rules',
      'productTypeKey',
      'productTypeKey',
      { shopId, level: 'productType' },
      { level: 1 },
    );
    const part = unionPart(
      'p',
      'products',
      { _id: { $in: [1, 2] }, shopId },
      { productTypeKey: 1 },
      undefined,
      [join],
    );
    const agg = commandShape('aggregate', {
      aggregate: 'shops',
      pipeline: [{ $match: { _id: shopId } }, part.stage],
    });
    expect(agg!.statements).toEqual([
      { branches: [{ eq: ['_id'], range: [], sort: [] }] },
      { collection: 'products', branches: [{ eq: ['_id', 'shopId'], multi: ['_id'], range: [], sort: [] }] },
      {
        collection: 'commission_rules',
        branches: [{ eq: ['shopId', 'level', 'productTypeKey'], range: [], sort: [] }],
      },
    ]);
  });

  it('counts the documents a reply hands back', () => {
    expect(documentsReturned('find', { cursor: { firstBatch: [1, 2, 3] } })).toBe(3);
    expect(documentsReturned('getMore', { cursor: { nextBatch: [1] } })).toBe(1);
    expect(documentsReturned('findAndModify', { value: null })).toBe(0);
    expect(documentsReturned('findAndModify', { value: {} })).toBe(1);
    expect(documentsReturned('update', { n: 5 })).toBe(0);
  });
});

describe('index coverage (ESR)', () => {
  const list = ix('li', [
    ['shopId', 1],
    ['vendorId', 1],
    ['createdAt', -1],
    ['_id', -1],
  ]);
  const unique = ix(
    'li',
    [
      ['shopId', 1],
      ['orderId', 1],
      ['lineItemId', 1],
    ],
    true,
  );
  const id = { ...ix('li', [['_id', 1]], true), name: '_id_' };

  it('serves equality, then sort (either orientation), then range', () => {
    const b = {
      eq: ['shopId', 'vendorId'],
      range: ['createdAt'],
      sort: [
        ['createdAt', 1],
        ['_id', 1],
      ] as Array<[string, 1 | -1]>,
    };
    expect(assess(b, list).served).toBe(true);
    expect(
      assess(
        {
          ...b,
          sort: [
            ['createdAt', -1],
            ['_id', 1],
          ],
        },
        list,
      ),
    ).toMatchObject({ served: false, reason: expect.stringMatching(/orientation/) });
  });

  it('drops sort keys matched by equality (a seek page on a tie)', () => {
    const b = {
      eq: ['shopId', 'vendorId', 'createdAt'],
      range: ['_id'],
      sort: [
        ['createdAt', -1],
        ['_id', -1],
      ] as Array<[string, 1 | -1]>,
    };
    expect(assess(b, list).served).toBe(true);
  });

  it('refuses equality outside the prefix, a sort after a gap and a range before the sort', () => {
    expect(assess({ eq: ['shopId', 'status'], range: [], sort: [] }, list).served).toBe(false);
    expect(assess({ eq: ['shopId'], range: [], sort: [['createdAt', -1]] }, list).served).toBe(false);
    expect(assess({ eq: ['shopId', 'vendorId'], range: ['price'], sort: [] }, list).served).toBe(false);
    expect(assess({ eq: [], range: [], sort: [] }, list).reason).toMatch(/collection scan/);
  });

  it('accepts, without a sort, a range on later keys (an index-only count)', () => {
    const b = { eq: ['shopId', 'vendorId'], range: ['_id'], sort: [] as Array<[string, 1 | -1]> };
    expect(assess(b, list)).toMatchObject({ served: true, reason: expect.stringMatching(/index-only/) });
    expect(
      assess(
        { ...b, sort: [['createdAt', -1]] },
        {
          ...list,
          key: [
            ['shopId', 1],
            ['vendorId', 1],
            ['x', 1],
            ['createdAt', -1],
            ['_id', -1],
          ],
        },
      ).served,
    ).toBe(false);
  });

  it('accepts any extra predicate on a unique point lookup', () => {
    expect(assess({ eq: ['_id', 'shopId', 'frozen'], range: ['balance'], sort: [] }, id).served).toBe(true);
    expect(
      assess({ eq: ['shopId', 'orderId', 'lineItemId', 'frozen'], range: [], sort: [] }, unique).served,
    ).toBe(true);
    expect(assess({ eq: ['shopId', 'orderId'], range: [], sort: [] }, unique).served).toBe(true);
  });

  it('names the closest index when none serves, and the indexes no query used', () => {
    const v = verdict({ eq: ['shopId', 'vendorId', 'status'], range: [], sort: [] }, [id, unique, list]);
    expect(v).toMatchObject({ served: false, index: list });
    const report = coverage(
      [
        {
          command: 'find',
          collection: 'li',
          statements: [{ branches: [{ eq: ['shopId', 'vendorId'], range: [], sort: [] }] }],
        },
        {
          command: 'find',
          collection: 'li',
          statements: [{ branches: [{ eq: ['shopId', 'vendorId'], range: [], sort: [] }] }],
        },
        {
          command: 'find',
          collection: 'li',
          statements: [{ branches: [{ eq: ['shopId', 'x'], range: [], sort: [] }] }],
        },
      ],
      [id, unique, list],
    );
    expect(report.rows).toHaveLength(2);
    expect(report.rows.find((r) => r.served)!.count).toBe(2);
    expect(report.unserved.map((r) => r.shape)).toEqual(['eq(shopId,x)']);
    expect(report.unusedIndexes).toEqual([unique]);
  });

  it("judges an aggregation's $unionWith parts against their own collections' indexes", () => {
    const byName = ix('vendors', [
      ['shopId', 1],
      ['vendorName', 1],
    ]);
    const shape = commandShape('aggregate', {
      aggregate: 'shops',
      pipeline: [
        { $match: { _id: 1 } },
        unionPart('v', 'vendors', { shopId: 1, vendorName: { $in: ['a'] } }, { vendorName: 1 }).stage,
        unionPart('k', 'sku_commissions', { shopId: 1, sku: { $in: ['s'] } }, { sku: 1 }).stage,
      ],
    })!;
    const report = coverage([shape], [ix('shops', [['_id', 1]], true), byName]);
    expect(report.rows.map((r) => [r.collection, r.shape, r.served])).toEqual([
      ['shops', 'eq(_id)', true],
      ['sku_commissions', 'eq(shopId,sku)', false],
      ['vendors', 'eq(shopId,vendorName)', true],
    ]);
    expect(report.rows.find((r) => r.collection === 'vendors')!.index).toBe(byName.name);
    expect(report.unusedIndexes).toEqual([]);
  });
});

describe('a total order for multi-row reads (the development store tries every plan otherwise)', () => {
  const lines = [
    ix('line_items', [['_id', 1]], true),
    ix(
      'line_items',
      [
        ['shopId', 1],
        ['orderId', 1],
        ['lineItemId', 1],
        ['type', 1],
      ],
      true,
    ),
    ix('line_items', [
      ['shopId', 1],
      ['vendorId', 1],
    ]),
  ];
  const find = (filter: Record<string, unknown>, sort: Record<string, 1 | -1> | undefined, docs: number) => ({
    ...commandShape('find', { find: 'line_items', filter, sort })!,
    docs,
    op: 'GET /v1/test',
    example: 'test',
  });

  it('records which equality fields an $in of several values matches', () => {
    expect(filterBranches({ a: { $in: [1, 2] }, b: { $in: [1] }, c: 3 })[0].multi).toEqual(['a']);
    expect(filterBranches({ a: 1 })[0].multi).toBeUndefined();
  });

  it('flags a read of two or more rows sorted with ties where several indexes compete', () => {
    const report = coverage(
      [
        find({ shopId: 1, orderId: 2 }, { orderId: 1, lineItemId: 1 }, 3), // a refund row ties with its sale
        find({ shopId: 1, orderId: 2 }, { orderId: 1, lineItemId: 1, type: 1 }, 3), // the unique key: total
        find({ shopId: 1, orderId: 3 }, undefined, 1), // one row: nothing to order
        find({ _id: { $in: [1, 2] }, shopId: 1 }, undefined, 2), // several ids: no order among them
        find({ _id: { $in: [1, 2] }, shopId: 1 }, { _id: 1 }, 2),
      ],
      lines,
    );
    expect(report.unordered.map((r) => r.shape)).toEqual([
      'eq(orderId,shopId) sort(orderId:1,lineItemId:1)',
      'eq(_id,shopId)',
    ]);
  });

  it("leaves alone a test's own reads of the database (no request or job)", () => {
    const report = coverage([{ ...find({ shopId: 1, orderId: 2 }, undefined, 3), op: null }], lines);
    expect(report.unordered).toEqual([]);
  });

  it('leaves alone a read only one index can answer', () => {
    const report = coverage([find({ _id: { $in: [1, 2, 3] } }, undefined, 3)], lines); // the _id index alone
    expect(report.unordered).toEqual([]);
  });
});
