import { BSON } from 'mongodb';
import { wireJson } from './command-observer';

describe('wireJson (the captured command with its values)', () => {
  it('writes a value the way the driver sends it, even when the object links back to its parent', () => {
    // what a mongoose sub-document array looks like to the driver: a parent link, and toBSON
    const parent: Record<string, unknown> = {};
    const line = { lineItemId: 7, toBSON: () => ({ lineItemId: 7 }) } as Record<string, unknown>;
    line.__parentArray = parent;
    parent.lines = [line];
    const command = { update: 'order_summaries', updates: [{ q: { _id: 1 }, u: { $setOnInsert: parent } }] };
    expect(() => BSON.EJSON.stringify(command)).toThrow(/circular/);
    const back = BSON.EJSON.parse(wireJson(command)) as typeof command;
    expect(back.updates[0].u.$setOnInsert).toEqual({ lines: [{ lineItemId: 7 }] });
  });

  it('keeps the type of every value (extended JSON, not relaxed)', () => {
    const json = wireJson({ find: 'line_items', filter: { total: new BSON.Decimal128('12.50'), n: 3 } });
    expect(JSON.parse(json).filter).toEqual({ total: { $numberDecimal: '12.50' }, n: { $numberInt: '3' } });
  });

  it('never throws: a command BSON cannot hold is recorded as such', () => {
    const broken = {
      toBSON: () => {
        throw new Error('cannot be sent');
      },
    };
    expect(JSON.parse(wireJson({ find: 'x', filter: { f: broken } }))).toEqual({
      unserialisable: 'Error: cannot be sent',
    });
  });
});
