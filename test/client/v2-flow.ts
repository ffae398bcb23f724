import { type Clients, expectThat, ok } from './clients';
import type { V1Result } from './v1-flow';

/**
 * The V2 part: the shop's orders paged forward and back by cursor, then a merchant key, its token,
 * and V2 administration of vendors, users and payout adjustments.
 */
export async function v2Flow(c: Clients, v1: V1Result): Promise<void> {
  const shop = c.v2(v1.shopToken);

  const first = ok(await shop.GET('/v2/orders', { params: { query: { first: 2 } } })).data;
  expectThat(first.view === 'shop', 'a shop token gets the shop view');
  expectThat(first.orders.length === 2 && first.pageInfo.hasNextPage, 'first page of 2 with more');
  expectThat(first.totalCount === v1.orderIds.length, `totalCount ${first.totalCount}`);
  const after = first.pageInfo.endCursor;
  expectThat(after !== null, 'an endCursor');

  const second = ok(await shop.GET('/v2/orders', { params: { query: { first: 2, after } } })).data;
  expectThat(second.view === 'shop', 'still the shop view');
  expectThat(
    second.orders.length === 1 && second.pageInfo.hasPreviousPage,
    'the last order, with a way back',
  );
  const before = second.pageInfo.startCursor;
  expectThat(before !== null, 'a startCursor');

  const back = ok(await shop.GET('/v2/orders', { params: { query: { last: 2, before } } })).data;
  expectThat(back.view === 'shop', 'the shop view going back');
  const ids = (page: { orders: { orderId: number }[] }) => page.orders.map((o) => o.orderId).join(',');
  expectThat(ids(back) === ids(first), `back to the first page: ${ids(back)} vs ${ids(first)}`);
  const newestFirst = [...v1.orderIds].reverse();
  expectThat(ids(first) === newestFirst.slice(0, 2).join(','), 'newest first');

  const key = ok(await c.v1(v1.shopToken).POST('/v1/merchant-keys', { body: { name: 'generated client' } }));
  const auth = ok(await c.v2().POST('/authenticate', { body: { apiKey: key.key } }));
  expectThat(auth.data.scope === 'merchant', 'a merchant token');
  const merchant = c.v2(auth.data.token);

  const vendors = ok(
    await merchant.GET('/v2/vendors', { params: { query: { first: 10, active: 'true' } } }),
  ).data;
  expectThat(
    vendors.vendors.some((v) => v._id === v1.vendorId),
    'the vendor in the V2 list',
  );
  const patched = ok(
    await merchant.PATCH('/v2/vendors/{id}', {
      params: { path: { id: v1.vendorId } },
      body: { commissionAmount: 10 },
    }),
  ).data;
  expectThat(patched.commissionAmount === 10 && patched.vendorName === v1.vendorName, 'vendor patched');

  const users = ok(await merchant.GET('/v2/users', { params: { query: { vendorId: v1.vendorId } } })).data;
  expectThat(users.users.length === 1 && users.users[0].email === 'jane@acme.example', 'the portal user');

  const created = ok(
    await merchant.POST('/v2/payout-adjustments', {
      body: { vendorId: v1.vendorId, amount: 25, type: 'DEDUCTION', comments: 'Return shipping' },
    }),
  ).data;
  expectThat(
    created.amount === -25 && created.status === 'UNPAID',
    `adjustment ${created.amount} ${created.status}`,
  );
  const listed = ok(
    await merchant.GET('/v2/payout-adjustments', { params: { query: { vendorId: v1.vendorId } } }),
  ).data;
  expectThat(
    listed.items.some((a) => a._id === created._id),
    'the adjustment listed',
  );
  const read = ok(
    await merchant.GET('/v2/payout-adjustments/{id}', { params: { path: { id: created._id } } }),
  );
  expectThat(read.data.comments === 'Return shipping', 'the adjustment read back');
}
