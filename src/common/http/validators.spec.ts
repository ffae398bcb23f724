import { decimalPlaces, isAmount } from './validators';

describe('decimalPlaces', () => {
  it.each([
    [0, 0],
    [25, 0],
    [0.1, 1],
    [12.34, 2],
    [1.005, 3],
    [5e-324, 324],
    [1e-7, 7],
    [1.5e-7, 8],
    [1e21, 0],
    [-3.25, 2],
  ])('%p has %p', (value, places) => expect(decimalPlaces(value)).toBe(places));
});

describe('isAmount', () => {
  const money = { maxDecimals: 2, greaterThan: 0, max: 1e9 };
  it.each([
    [25, true],
    [0.01, true],
    [19.99, true],
    [0, false],
    [-1, false],
    [0.001, false],
    [5e-324, false],
    [1e10, false],
    [Number.NaN, false],
    [Number.POSITIVE_INFINITY, false],
    ['25', false],
    [null, false],
  ])('%p → %p', (value, ok) => expect(isAmount(value, money)).toBe(ok));
});
