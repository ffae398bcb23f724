import { addMoney, roundMoney, signedAmount, sumMoney } from './payout-money';

describe('payout money helpers', () => {
  it('sums exactly where floating point does not', () => {
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(sumMoney([0.1, 0.2])).toBe(0.3);
    expect(sumMoney([10.01, 0.1, 0.2, 33.33, 19.99, 5])).toBe(68.63);
    expect(sumMoney([])).toBe(0);
    expect(addMoney(68.63, -21.7)).toBe(46.93);
  });

  it('rounds half-up to cents', () => {
    expect(roundMoney(1.005)).toBe(1.01);
    expect(roundMoney(-1.005)).toBe(-1.01);
    expect(roundMoney(2.344)).toBe(2.34);
  });

  it('signs adjustment amounts by type, never -0', () => {
    expect(signedAmount('DEDUCTION', 25)).toBe(-25);
    expect(signedAmount('ADDITION', 25)).toBe(25);
    expect(signedAmount('ADDITION', -25)).toBe(25);
    expect(signedAmount('DEDUCTION', 0.1)).toBe(-0.1);
    expect(Object.is(signedAmount('DEDUCTION', 0), -0)).toBe(false);
  });
});
