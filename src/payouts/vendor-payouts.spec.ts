import { receivedTotal } from './vendor-payouts.service';

describe('receivedTotal (GET /payouts/summary, the shop dashboard’s totalPayouts)', () => {
  it('Σ paid transfers plus reversed ones less what was reversed, exact to the cent', () => {
    expect(
      receivedTotal([
        // the store's Σ of 0.1 + 0.2 carries float noise; it still counts as 0.30
        { state: 'paid', currency: 'USD', amount: 0.1 + 0.2, reversed: 0, count: 2 },
        { state: 'reversed', currency: 'USD', amount: 100, reversed: 40.01, count: 1 },
      ]),
    ).toBe(60.29);
  });

  it('a fully reversed transfer adds nothing; no transfers → 0', () => {
    expect(
      receivedTotal([{ state: 'reversed', currency: 'USD', amount: 12.5, reversed: 12.5, count: 1 }]),
    ).toBe(0);
    expect(receivedTotal([])).toBe(0);
  });
});
