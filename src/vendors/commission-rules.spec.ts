import { commissionProblem } from './commission-rules';

describe('commissionProblem', () => {
  it.each([
    ['percentage', 0],
    ['percentage', 14.5],
    ['percentage', 100],
    ['flat', 0],
    ['flat', 250],
  ] as const)('accepts %s %p', (type, amount) => expect(commissionProblem(type, amount, 'x')).toBeNull());

  it.each([
    ['percentage', -1, 'x must not be less than 0'],
    ['percentage', 100.01, 'x must not be greater than 100 for a percentage commission'],
    ['flat', -0.5, 'x must not be less than 0'],
    ['flat', Number.NaN, 'x must be a number'],
    ['flat', Number.POSITIVE_INFINITY, 'x must be a number'],
    ['flat', 2e9, 'x must not be greater than 1000000000'],
  ] as const)('refuses %s %p', (type, amount, message) =>
    expect(commissionProblem(type, amount, 'x')).toBe(message),
  );
});
