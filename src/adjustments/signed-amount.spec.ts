import { signedAmount } from './signed-amount';

describe('signedAmount', () => {
  it('signs adjustment amounts by type, never -0', () => {
    expect(signedAmount('DEDUCTION', 25)).toBe(-25);
    expect(signedAmount('ADDITION', 25)).toBe(25);
    expect(signedAmount('ADDITION', -25)).toBe(25);
    expect(signedAmount('DEDUCTION', 0.1)).toBe(-0.1);
    expect(signedAmount('DEDUCTION', 1.005)).toBe(-1.01);
    expect(Object.is(signedAmount('DEDUCTION', 0), -0)).toBe(false);
  });
});
