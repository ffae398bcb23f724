import { ValidationError } from '../common/errors';
import { ProfileEntriesPipe } from './profile-entries.pipe';

describe('ProfileEntriesPipe', () => {
  const pipe = new ProfileEntriesPipe();
  const fieldsOf = (run: () => unknown) => {
    try {
      run();
    } catch (err) {
      expect(err).toBeInstanceOf(ValidationError);
      return ((err as ValidationError).details as { fields: Record<string, string[]> }).fields;
    }
    throw new Error('expected a ValidationError');
  };

  it('accepts string, number and boolean values', () => {
    const body = [
      { field: 'taxId', value: 'GB1' },
      { field: 'employees', value: 12 },
      { field: 'verified', value: false },
    ];
    expect(pipe.transform(body)).toEqual(body);
  });

  it.each([
    ['an object value', [{ field: 'a', value: { x: 1 } }], '0.value'],
    ['an array value', [{ field: 'a', value: [1] }], '0.value'],
    ['a null value', [{ field: 'a', value: null }], '0.value'],
    ['a missing value', [{ field: 'a' }], '0.value'],
    ['an empty field', [{ field: '', value: 1 }], '0.field'],
    ['an unknown key', [{ field: 'a', value: 1, extra: 2 }], '0.extra'],
    ['a non-object entry', [{ field: 'a', value: 1 }, 'x'], '1'],
  ])('refuses %s', (_name, body, path) => {
    expect(Object.keys(fieldsOf(() => pipe.transform(body)))).toEqual([path]);
  });

  it('refuses a body that is not an array', () => {
    expect(Object.keys(fieldsOf(() => pipe.transform({ field: 'a', value: 1 })))).toEqual(['body']);
  });
});
