import { duplicateKeyIndexes, isDuplicateKeyError } from './duplicate-key';

describe('isDuplicateKeyError', () => {
  it("recognises MongoDB's duplicate-key refusals (SecantusDB answers the same code 11000)", () => {
    expect(isDuplicateKeyError({ code: 11000, message: 'E11000 duplicate key error' })).toBe(true);
    expect(isDuplicateKeyError({ writeErrors: [{ index: 0, code: 11000 }] })).toBe(true);
    expect(isDuplicateKeyError({ writeErrors: [{ index: 0, err: { code: 11000 } }] })).toBe(true);
  });
  it('ignores anything else', () => {
    expect(isDuplicateKeyError({ code: 1, message: 'something else' })).toBe(false);
    // FerretDB's code-1 unique violation: FerretDB is no longer a supported store (ADR 0037)
    expect(
      isDuplicateKeyError({
        code: 1,
        message: "constraint failed: UNIQUE constraint failed: index 'v_x' (2067)",
      }),
    ).toBe(false);
    expect(isDuplicateKeyError({ writeErrors: [{ index: 0, code: 121 }] })).toBe(false);
    expect(isDuplicateKeyError(new Error('boom'))).toBe(false);
    expect(isDuplicateKeyError(null)).toBe(false);
  });
});

describe('duplicateKeyIndexes', () => {
  it('lists the refused positions when every refusal is a duplicate', () => {
    expect(
      duplicateKeyIndexes({
        writeErrors: [
          { index: 1, code: 11000 },
          { index: 3, code: 11000 },
        ],
      }),
    ).toEqual([1, 3]);
  });
  it('is null for any other failure', () => {
    expect(duplicateKeyIndexes({ code: 11000 })).toBeNull();
    expect(
      duplicateKeyIndexes({
        writeErrors: [
          { index: 1, code: 11000 },
          { index: 2, code: 121 },
        ],
      }),
    ).toBeNull();
  });
});
