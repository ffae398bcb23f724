import type {
  SealedTaxProfileValues,
  TaxProfilesRepository,
} from '../../src/tax-profiles/tax-profiles.repository';

/** Vendor tax profiles' sealed values in memory, with the repository's compare-and-set semantics. */
export class FakeTaxProfileSecretsRepository implements Pick<
  TaxProfilesRepository,
  'secretsPage' | 'replaceSealed'
> {
  rows: SealedTaxProfileValues[] = [];
  /** Called before each compare-and-set: lets a test change a row "concurrently". */
  beforeReplace?: (row: SealedTaxProfileValues) => void;

  add(row: SealedTaxProfileValues): SealedTaxProfileValues {
    this.rows.push(row);
    this.rows.sort((a, b) => String(a._id).localeCompare(String(b._id)));
    return row;
  }

  async secretsPage(
    after: SealedTaxProfileValues['_id'] | null,
    limit: number,
  ): Promise<SealedTaxProfileValues[]> {
    return this.rows
      .filter((r) => !after || String(r._id) > String(after))
      .slice(0, limit)
      .map((r) => ({ ...r }));
  }

  async replaceSealed(
    before: SealedTaxProfileValues,
    after: Pick<SealedTaxProfileValues, 'taxIdEnc' | 'dateOfBirthEnc'>,
  ): Promise<boolean> {
    const row = this.rows.find((r) => r._id.equals(before._id));
    if (!row) return false;
    this.beforeReplace?.(row);
    if (row.taxIdEnc !== before.taxIdEnc || row.dateOfBirthEnc !== before.dateOfBirthEnc) return false;
    row.taxIdEnc = after.taxIdEnc;
    row.dateOfBirthEnc = after.dateOfBirthEnc;
    return true;
  }
}
