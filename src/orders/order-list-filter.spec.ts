import { ValidationError } from '../common/errors';
import { orderListWhere } from '../order-data/order-list-filter';
import { listFilter } from './orders.service';

describe('order list filters', () => {
  it('a search by number reads the order number; anything else the exact name', () => {
    expect(listFilter({ search: '#1001' })).toMatchObject({ orderNumber: 1001 });
    expect(listFilter({ search: ' 1001 ' })).toMatchObject({ orderNumber: 1001 });
    expect(listFilter({ search: 'EU-1001' })).toMatchObject({ orderName: 'EU-1001' });
    expect(listFilter({ search: '#10a' })).toMatchObject({ orderName: '#10a' });
  });

  it('fulfillmentStatus leaves cancelled orders out (as the counts do); dates bound the sort key', () => {
    const f = listFilter({
      fulfillmentStatus: 'partial',
      financialStatus: 'paid',
      createdAtMin: '2026-01-01',
      createdAtMax: '2026-01-02T00:00:00Z',
    });
    expect(orderListWhere(f)).toEqual({
      cancelled: false,
      fulfillmentStatus: 'partial',
      financialStatus: 'paid',
      orderCreatedAt: { $gte: new Date('2026-01-01T00:00:00Z'), $lte: new Date('2026-01-02T00:00:00Z') },
    });
    expect(orderListWhere(listFilter({}))).toEqual({});
  });

  it.each([
    [{ search: '1001', fulfillmentStatus: 'fulfilled' as const }],
    [{ search: '1001', financialStatus: 'paid' as const }],
    [{ createdAtMin: '2026-01-03', createdAtMax: '2026-01-02' }],
    [{ search: '   ' }],
  ])('refuses %j with a 422', (q) => {
    expect(() => listFilter(q)).toThrow(ValidationError);
  });
});
