import { TaxProfileFacts, taxProfileCompleteness } from './tax-profile-completeness';

const address = { line1: '1 Example Street', city: 'Exampleton', postalCode: '12345', country: 'DE' };
const base: TaxProfileFacts = {
  legalName: 'Example Goods Ltd',
  entityType: 'business',
  address,
  taxIdProvided: true,
  taxIdCountry: 'GB',
  dateOfBirthProvided: false,
  businessRegistrationNumber: '00000000',
};

describe('taxProfileCompleteness', () => {
  it('a complete business needs no date of birth', () => {
    expect(taxProfileCompleteness(base)).toEqual({ complete: true, missing: [] });
  });

  it('a business without its registration number misses only that', () => {
    expect(taxProfileCompleteness({ ...base, businessRegistrationNumber: null })).toEqual({
      complete: false,
      missing: ['businessRegistrationNumber'],
    });
  });

  it('an individual needs a date of birth, not a registration number', () => {
    const individual = { ...base, entityType: 'individual' as const, businessRegistrationNumber: null };
    expect(taxProfileCompleteness(individual)).toEqual({ complete: false, missing: ['dateOfBirth'] });
    expect(taxProfileCompleteness({ ...individual, dateOfBirthProvided: true })).toEqual({
      complete: true,
      missing: [],
    });
  });

  it('no profile misses the fields every profile needs, in a stable order', () => {
    expect(taxProfileCompleteness(null)).toEqual({
      complete: false,
      missing: ['legalName', 'entityType', 'address', 'taxId', 'taxIdCountry'],
    });
  });

  it('blank strings and a missing tax id count as missing', () => {
    expect(
      taxProfileCompleteness({
        ...base,
        legalName: '  ',
        taxIdProvided: false,
        taxIdCountry: '',
        address: null,
      }),
    ).toEqual({ complete: false, missing: ['legalName', 'address', 'taxId', 'taxIdCountry'] });
  });
});
