import { upsertReturningDocument } from './upsert';

describe('upsertReturningDocument', () => {
  it('returns the document of the first run', async () => {
    const run = jest.fn().mockResolvedValue({ _id: 1 });
    await expect(upsertReturningDocument(run)).resolves.toEqual({ _id: 1 });
    expect(run).toHaveBeenCalledTimes(1);
  });

  it('runs again after losing an insert race (E11000), and after a null answer', async () => {
    const dup = Object.assign(new Error('E11000 duplicate key'), { code: 11000 });
    const afterError = jest.fn().mockRejectedValueOnce(dup).mockResolvedValueOnce({ _id: 2 });
    await expect(upsertReturningDocument(afterError)).resolves.toEqual({ _id: 2 });
    const afterNull = jest.fn().mockResolvedValueOnce(null).mockResolvedValueOnce({ _id: 3 });
    await expect(upsertReturningDocument(afterNull)).resolves.toEqual({ _id: 3 });
  });

  it('does not swallow other errors, nor a second empty answer', async () => {
    await expect(upsertReturningDocument(jest.fn().mockRejectedValue(new Error('boom')))).rejects.toThrow(
      'boom',
    );
    await expect(upsertReturningDocument(jest.fn().mockResolvedValue(null))).rejects.toThrow(/twice/);
  });
});
