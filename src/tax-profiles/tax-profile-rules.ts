import type { UpdateTaxProfileDto } from './dto/tax-profile.dto';
import type { EntityType } from './tax-profile.schema';

const EARLIEST_BIRTH = '1900-01-01';

/** Why a YYYY-MM-DD date of birth is refused (not a real date, before 1900, today or later); null when fine. */
export function dateOfBirthProblem(value: string, today: Date): string | null {
  const d = new Date(`${value}T00:00:00.000Z`);
  if (Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== value)
    return 'dateOfBirth must be a real calendar date';
  if (value < EARLIEST_BIRTH) return `dateOfBirth must be on or after ${EARLIEST_BIRTH}`;
  if (value >= today.toISOString().slice(0, 10)) return 'dateOfBirth must be in the past';
  return null;
}

/**
 * The problems of a change against the profile it applies to, by field (empty: none): a date of
 * birth belongs to an individual (the entity type after the change), and must be a past date.
 */
export function taxProfileChangeProblems(
  currentEntityType: EntityType | null,
  body: UpdateTaxProfileDto,
  today: Date,
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const entityType = body.entityType !== undefined ? body.entityType : currentEntityType;
  if (typeof body.dateOfBirth === 'string') {
    const problem =
      entityType !== 'individual'
        ? 'dateOfBirth applies to individuals only (entityType individual)'
        : dateOfBirthProblem(body.dateOfBirth, today);
    if (problem) out.dateOfBirth = [problem];
  }
  return out;
}
