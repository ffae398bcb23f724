import { isDuplicateKeyError } from './duplicate-key';

describe('isDuplicateKeyError', () => {
  it('recognises MongoDB and FerretDB duplicate-key refusals', () => {
    expect(isDuplicateKeyError({ code: 11000, message: 'E11000 duplicate key error' })).toBe(true);
    expect(
      isDuplicateKeyError({
        code: 1,
        message: "constraint failed: UNIQUE constraint failed: index 'v_x' (2067)",
      }),
    ).toBe(true);
  });
  it('ignores anything else', () => {
    expect(isDuplicateKeyError({ code: 1, message: 'something else' })).toBe(false);
    expect(isDuplicateKeyError(new Error('boom'))).toBe(false);
    expect(isDuplicateKeyError(null)).toBe(false);
  });
});
