import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { UpdateTaxProfileDto } from './dto/tax-profile.dto';
import { dateOfBirthProblem, taxProfileChangeProblems } from './tax-profile-rules';

const today = new Date('2026-03-10T12:00:00Z');

describe('dateOfBirthProblem', () => {
  it.each([
    ['1980-01-31', null],
    ['2026-03-09', null],
    ['2026-03-10', 'dateOfBirth must be in the past'],
    ['2030-01-01', 'dateOfBirth must be in the past'],
    ['1980-02-30', 'dateOfBirth must be a real calendar date'],
    ['1980-13-01', 'dateOfBirth must be a real calendar date'],
    ['1899-12-31', 'dateOfBirth must be on or after 1900-01-01'],
  ])('%s → %s', (value, problem) => {
    expect(dateOfBirthProblem(value, today)).toBe(problem);
  });
});

describe('taxProfileChangeProblems', () => {
  it('refuses a date of birth for a business, stored or sent', () => {
    expect(taxProfileChangeProblems('business', { dateOfBirth: '1980-01-31' }, today)).toEqual({
      dateOfBirth: ['dateOfBirth applies to individuals only (entityType individual)'],
    });
    expect(
      taxProfileChangeProblems('individual', { entityType: 'business', dateOfBirth: '1980-01-31' }, today),
    ).toEqual({ dateOfBirth: [expect.stringContaining('individuals only')] });
    expect(taxProfileChangeProblems(null, { dateOfBirth: '1980-01-31' }, today)).toEqual({
      dateOfBirth: [expect.stringContaining('individuals only')],
    });
  });

  it('accepts a past date for an individual, and clearing one for anyone', () => {
    expect(
      taxProfileChangeProblems(null, { entityType: 'individual', dateOfBirth: '1980-01-31' }, today),
    ).toEqual({});
    expect(taxProfileChangeProblems('business', { dateOfBirth: null }, today)).toEqual({});
  });
});

describe('UpdateTaxProfileDto validation', () => {
  const problems = async (body: object) =>
    (
      await validate(plainToInstance(UpdateTaxProfileDto, body), {
        whitelist: true,
        forbidNonWhitelisted: true,
      })
    )
      .map((e) => e.property)
      .sort();

  it('accepts a full profile and nulls', async () => {
    expect(
      await problems({
        legalName: 'Example Goods Ltd',
        entityType: 'individual',
        address: { line1: '1 Example Street', city: 'Exampleton', postalCode: '12345', country: 'DE' },
        vatId: 'DE000000000',
        taxId: '00/000/00000',
        taxIdCountry: 'DE',
        dateOfBirth: '1980-01-31',
        businessRegistrationNumber: null,
        selfBillingConsent: true,
      }),
    ).toEqual([]);
  });

  it.each<[string, object, string]>([
    ['an unknown entity type', { entityType: 'company' }, 'entityType'],
    ['a lower-case country', { taxIdCountry: 'de' }, 'taxIdCountry'],
    ['a tax id with a bullet (a masked read sent back)', { taxId: '•••• 1234' }, 'taxId'],
    ['a tax id over 32 characters', { taxId: '1'.repeat(33) }, 'taxId'],
    ['a one-character VAT id', { vatId: 'D' }, 'vatId'],
    ['a date of birth not as YYYY-MM-DD', { dateOfBirth: '31/01/1980' }, 'dateOfBirth'],
    ['a blank legal name', { legalName: '   ' }, 'legalName'],
    ['consent as a string', { selfBillingConsent: 'yes' }, 'selfBillingConsent'],
    ['consent as null', { selfBillingConsent: null }, 'selfBillingConsent'],
    ['an address without a city', { address: { line1: 'x', postalCode: '1', country: 'DE' } }, 'address'],
    [
      'an address with an unknown country',
      { address: { line1: 'x', city: 'y', postalCode: '1', country: 'XX' } },
      'address',
    ],
    ['an address as a string', { address: '1 Example Street' }, 'address'],
    ['an unknown field', { taxNumber: '123' }, 'taxNumber'],
  ])('refuses %s', async (_name, body, field) => {
    expect(await problems(body)).toEqual([field]);
  });
});
