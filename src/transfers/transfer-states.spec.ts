import {
  canMove,
  creditsBack,
  OPEN_STATES,
  sourcesOf,
  TRANSFER_STATES,
  TransferState,
} from './transfer-states';

describe('transfer state machine', () => {
  const allowed: Array<[TransferState, TransferState]> = [
    ['pending', 'sent'],
    ['pending', 'paid'],
    ['pending', 'awaiting_reference'],
    ['pending', 'failed'],
    ['sent', 'paid'],
    ['sent', 'failed'],
    ['awaiting_reference', 'paid'],
    // the bank refused the operator's payment (POST /v1/payouts/transfers/{id}/fail)
    ['awaiting_reference', 'failed'],
    ['paid', 'reversed'],
    ['failed', 'pending'],
  ];

  it('allows exactly the documented moves', () => {
    for (const from of TRANSFER_STATES) {
      for (const to of TRANSFER_STATES) {
        const expected = allowed.some(([f, t]) => f === from && t === to);
        expect([from, to, canMove(from, to)]).toEqual([from, to, expected]);
      }
    }
  });

  it('never un-reverses, never re-fails a paid one', () => {
    expect(canMove('reversed', 'paid')).toBe(false);
    expect(canMove('paid', 'failed')).toBe(false);
  });

  it('sourcesOf is the inverse (the condition of each conditional update)', () => {
    expect(sourcesOf('paid').sort()).toEqual(['awaiting_reference', 'pending', 'sent']);
    expect(sourcesOf('failed').sort()).toEqual(['awaiting_reference', 'pending', 'sent']);
    expect(sourcesOf('reversed')).toEqual(['paid']);
    expect(sourcesOf('pending')).toEqual(['failed']);
  });

  it('credits back failed and reversed only; the sweeper drives pending and sent', () => {
    expect(TRANSFER_STATES.filter(creditsBack)).toEqual(['failed', 'reversed']);
    expect(OPEN_STATES).toEqual(['pending', 'sent']);
  });
});
