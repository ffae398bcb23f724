import { model, Schema, Types } from 'mongoose';
import { idFirst, idFirstPlugin, readsSeveralIds } from './id-first.plugin';

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

  const runPre = (M: { schema: unknown }, op: string, q: unknown): Promise<void> =>
    new Promise<void>((resolve, reject) =>
      (
        M.schema as unknown as {
          s: { hooks: { execPre(n: string, c: unknown, a: unknown[], cb: (e?: Error) => void): void } };
        }
      ).s.hooks.execPre(op, q, [], (err?: Error) => (err ? reject(err) : resolve())),
    );

  it('reads several documents named by _id in _id order, unless the query has a sort of its own', async () => {
    const schema = new Schema({ shopId: Schema.Types.ObjectId, n: Number });
    schema.plugin(idFirstPlugin);
    const M = model(`IdOrder${Date.now()}`, schema);
    const ids = [new Types.ObjectId(), new Types.ObjectId()];
    const several = M.find({ shopId, _id: { $in: ids } });
    await runPre(M, 'find', several);
    expect(several.getOptions().sort).toEqual({ _id: 1 });
    const own = M.find({ shopId, _id: { $in: ids } }).sort({ n: -1 });
    await runPre(M, 'find', own);
    expect(own.getOptions().sort).toEqual({ n: -1 });
    const one = M.find({ shopId, _id: { $in: [ids[0]] } });
    await runPre(M, 'find', one);
    expect(one.getOptions().sort).toBeUndefined();
  });

  it('knows a filter that names several documents by _id', () => {
    expect(readsSeveralIds({ _id: { $in: [1, 2] } })).toBe(true);
    expect(readsSeveralIds({ _id: { $in: [1] } })).toBe(false);
    expect(readsSeveralIds({ _id: 1 })).toBe(false);
    expect(readsSeveralIds({ shopId: { $in: [1, 2] } })).toBe(false);
  });
});
