import mongoose, { Error as MongooseError, Schema, Types } from 'mongoose';
import { LineItemSchema } from '../line-items/line-item.schema';
import { OrderSummarySchema } from '../order-data/order-summary.schema';
import { storedDocuments } from './stored-documents';

// Models on a connection that never connects: only their schemas and document code are used.
const connection = mongoose.createConnection();
const LineItems = connection.model('StoredLineItem', LineItemSchema);
const Summaries = connection.model('StoredSummary', OrderSummarySchema);

const NOW = new Date('2026-11-27T10:00:00.000Z');

/** What `insertMany` would have stored: the hydrated document's plain object. */
function asMongooseStores<T>(model: mongoose.Model<T>, doc: object): Record<string, unknown> {
  const d = new model(doc);
  (d as unknown as { initializeTimestamps(): void }).initializeTimestamps();
  const out = d.toObject({ depopulate: true, versionKey: true }) as Record<string, unknown>;
  out.__v = 0;
  return out;
}

function saleRow(): Record<string, unknown> {
  return {
    _id: new Types.ObjectId(),
    shopId: new Types.ObjectId(),
    orderId: 820982911946154500,
    lineItemId: 466157049,
    type: 'sale',
    vendorId: new Types.ObjectId(),
    vendorName: 'acme',
    orderName: '#1001',
    orderNumber: 1001,
    orderCreatedAt: new Date('2026-11-01T00:00:00.000Z'),
    financialStatus: 'paid',
    shippingAddress: { city: 'Ottawa', zip: null },
    name: 'IPod Nano',
    sku: 'IPOD-1',
    price: 50,
    quantity: 2,
    sales: 100,
    payout: 90,
    fulfillment: null,
    createdAt: NOW,
    updatedAt: NOW,
  };
}

describe('storedDocuments', () => {
  it('stores what insertMany stores: defaults, timestamps, version key (a line item and a summary)', () => {
    const row = saleRow();
    const [stored] = storedDocuments(LineItems, [row], NOW);
    expect(stored).toEqual(asMongooseStores(LineItems, row));
    expect(stored).toMatchObject({
      paid: 0,
      payoutStatus: 'unpaid',
      frozen: false,
      variantTitle: null,
      __v: 0,
    });

    const summary = {
      _id: new Types.ObjectId(),
      shopId: new Types.ObjectId(),
      vendorId: null,
      orderRef: new Types.ObjectId(),
      orderId: 1,
      orderCreatedAt: NOW,
      totalSales: 12.5,
      createdAt: NOW,
      updatedAt: NOW,
    };
    const [s] = storedDocuments(Summaries, [summary], NOW);
    expect(s).toEqual(asMongooseStores(Summaries, summary));
    expect(s.status).toEqual([]);
  });

  it('sets createdAt and updatedAt to now when the caller gave none, and keeps a given one', () => {
    const row = { ...saleRow(), createdAt: undefined, updatedAt: undefined };
    const earlier = new Date('2026-01-01T00:00:00.000Z');
    const [a, b] = storedDocuments(LineItems, [row, { ...row, createdAt: earlier }], NOW);
    expect(a.createdAt).toEqual(NOW);
    expect(a.updatedAt).toEqual(NOW);
    expect(b.createdAt).toEqual(earlier);
  });

  it('checks a single-nested subdocument with its own defaults', () => {
    const row = { ...saleRow(), fulfillment: { trackingNumber: 'T1', createdAt: NOW } };
    const [stored] = storedDocuments(LineItems, [row], NOW);
    expect(stored.fulfillment).toEqual({
      status: 'success',
      trackingNumber: 'T1',
      trackingCompany: null,
      trackingUrl: null,
      shipmentStatus: null,
      shipmentStatusAt: null,
      platformFulfillmentId: null,
      createdAt: NOW,
      deliveredAt: null,
    });
    expect(stored).toEqual(asMongooseStores(LineItems, row));
  });

  it('leaves out empty plain objects at any depth, as mongoose minimises them', () => {
    const row = {
      ...saleRow(),
      shippingAddress: {},
      billingAddress: { city: 'Ottawa', extra: {}, zip: undefined, nested: { deeper: {} } },
    };
    const [stored] = storedDocuments(LineItems, [row], NOW);
    expect('shippingAddress' in stored).toBe(false);
    expect(stored.billingAddress).toEqual({ city: 'Ottawa' });
    expect(stored).toEqual(asMongooseStores(LineItems, row));
    expect(row.billingAddress.extra).toEqual({}); // the caller's object is not touched
  });

  it('does not write a field left undefined', () => {
    const [stored] = storedDocuments(LineItems, [{ ...saleRow(), eventPendingAt: undefined }], NOW);
    expect('eventPendingAt' in stored).toBe(false);
  });

  it.each([
    ['a missing required field', { orderCreatedAt: undefined }, 'orderCreatedAt'],
    ['a value outside the enum', { payoutStatus: 'settled' }, 'payoutStatus'],
    ['a number given as a string', { payout: '90.00' }, 'payout'],
    ['an _id given as a string', { _id: '64b7f0c2a1b2c3d4e5f60718' }, '_id'],
    ['NaN', { sales: Number.NaN }, 'sales'],
    ['a field the schema does not declare', { payoutAmount: 90 }, 'payoutAmount'],
    [
      'a subdocument field of the wrong type',
      { fulfillment: { trackingNumber: 7 } },
      'fulfillment.trackingNumber',
    ],
  ])('refuses %s with a validation error naming the path', (_name, change, path) => {
    const row = { ...saleRow(), ...change };
    let error: unknown;
    try {
      storedDocuments(LineItems, [row], NOW);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(MongooseError.ValidationError);
    expect(Object.keys((error as MongooseError.ValidationError).errors)).toEqual([path]);
  });

  it('refuses a schema whose subdocuments keep their own timestamps (only mongoose documents set those)', () => {
    const child = new Schema({ note: String }, { timestamps: true });
    const Parent = connection.model('StoredParent', new Schema({ child }));
    expect(() => storedDocuments(Parent, [{}], NOW)).toThrow(/subdocument schema with timestamps/);
  });

  it('leaves the caller’s objects as they were', () => {
    const row = saleRow();
    const before = { ...row };
    storedDocuments(LineItems, [row], NOW);
    expect(row).toEqual(before);
  });
});
