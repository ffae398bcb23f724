import { buildMessage, isISO8601, ValidateBy } from 'class-validator';

/**
 * The instant an ISO 8601 date-time parameter names, or null when it names none we can read. ISO
 * 8601 allows forms no date parser in Node reads (week dates `2026-W48-5`, ordinal dates
 * `2026-332`, the basic format `20261127`, an hour alone `2026-11-27T10`): class-validator's
 * `isISO8601` passes them and `new Date()` makes an Invalid Date of them, which reached the store as
 * a cast error (answered 404) or failed a write (500). Both must agree before a value is used.
 */
export function parseDateTime(value: unknown): Date | null {
  if (typeof value !== 'string' || !isISO8601(value, { strict: true })) return null;
  const at = new Date(value);
  return Number.isNaN(at.getTime()) ? null : at;
}

/**
 * class-validator: an ISO 8601 date (`2026-11-27`) or date-time (`2026-11-27T10:00:00Z`,
 * `…+01:00`) that names a real instant; anything else answers 422 naming the parameter.
 */
export function IsDateTime(): PropertyDecorator {
  return ValidateBy({
    name: 'isDateTime',
    validator: {
      validate: (value: unknown) => parseDateTime(value) !== null,
      defaultMessage: buildMessage(
        (each) =>
          `${each}$property must be an ISO 8601 date-time such as 2026-11-27T10:00:00Z (or a date, 2026-11-27)`,
      ),
    },
  });
}
