import { model, Schema, Types } from 'mongoose';
import { idFirst, idFirstPlugin } from './id-first.plugin';

describe('idFirst', () => {
  const _id = new Types.ObjectId();
  const shopId = new Types.ObjectId();

  it('moves _id to the front and keeps every other key and value in order', () => {
    const out = idFirst({ shopId, _id, auditPendingKey: 'k', auditPending: 1 });
    expect(Object.keys(out)).toEqual(['_id', 'shopId', 'auditPendingKey', 'auditPending']);
    expect(out).toEqual({ shopId, _id, auditPendingKey: 'k', auditPending: 1 });
  });

  it('leaves a filter alone when _id is first, absent or alone (the same object)', () => {
    for (const f of [{ _id, shopId }, { shopId, vendorId: _id }, { _id }, {}]) expect(idFirst(f)).toBe(f);
  });

  it('is applied to the queries of a schema that uses the plugin', () => {
    const schema = new Schema({ shopId: Schema.Types.ObjectId, n: Number });
    schema.plugin(idFirstPlugin);
    const M = model(`IdFirst${Date.now()}`, schema);
    const q = M.updateOne({ shopId, n: 1, _id }, { $set: { n: 2 } });
    // run the query middleware without a connection: the pre hooks see and rewrite the filter
    return new Promise<void>((resolve, reject) =>
      (
        M.schema as unknown as {
          s: { hooks: { execPre(n: string, c: unknown, a: unknown[], cb: (e?: Error) => void): void } };
        }
      ).s.hooks.execPre('updateOne', q, [], (err?: Error) => {
        if (err) return reject(err);
        try {
          expect(Object.keys(q.getFilter())).toEqual(['_id', 'shopId', 'n']);
          resolve();
        } catch (failed) {
          reject(failed as Error);
        }
      }),
    );
  });
});
