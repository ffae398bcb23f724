import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { buildMessage, IsOptional, ValidateBy } from 'class-validator';
import { ValidationError } from '../errors';

/**
 * Report dates are calendar days in UTC, the reporting time zone of every shop: `start` covers
 * from 00:00:00.000Z of that day, `end` up to 23:59:59.999Z of that day (both bounds inclusive).
 */
export const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const DAY_MS = 24 * 3600 * 1000;

/** The first instant of a YYYY-MM-DD day (UTC), or null when the text is not a real calendar date. */
export function dayStart(date: string): Date | null {
  if (!DATE_RE.test(date)) return null;
  const d = new Date(`${date}T00:00:00.000Z`);
  return Number.isNaN(d.getTime()) || d.toISOString().slice(0, 10) !== date ? null : d;
}

/** The last instant (…T23:59:59.999Z) of a YYYY-MM-DD day, or null. */
export function dayEnd(date: string): Date | null {
  const start = dayStart(date);
  return start ? new Date(start.getTime() + DAY_MS - 1) : null;
}

/** The UTC calendar day of an instant, YYYY-MM-DD. */
export function dayOf(at: Date): string {
  return at.toISOString().slice(0, 10);
}

/**
 * A `{$gte, $lte}` filter for an inclusive day range, or undefined when neither bound is given.
 * start after end is a 422 (the DTOs already checked the format).
 */
export function dayRangeFilter(start?: string, end?: string): { $gte?: Date; $lte?: Date } | undefined {
  if (!start && !end) return undefined;
  const from = start ? dayStart(start) : null;
  const to = end ? dayEnd(end) : null;
  if (start && !from) throw new ValidationError(`start "${start}" is not a valid YYYY-MM-DD date`);
  if (end && !to) throw new ValidationError(`end "${end}" is not a valid YYYY-MM-DD date`);
  if (from && to && from > to) throw new ValidationError('start must be on or before end');
  return { ...(from ? { $gte: from } : {}), ...(to ? { $lte: to } : {}) };
}

/** class-validator: a real YYYY-MM-DD calendar date (2025-02-30 is refused). */
export function IsDay(): PropertyDecorator {
  return ValidateBy({
    name: 'isDay',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && dayStart(value) !== null,
      defaultMessage: buildMessage(
        (each) => `${each}$property must be a calendar date in the form YYYY-MM-DD`,
      ),
    },
  });
}

/**
 * An optional `start` query parameter: the first UTC calendar day of an inclusive range.
 * `description` says which date the range filters.
 */
export function StartDayParam(description: string): PropertyDecorator {
  return dayParam(description, '2026-11-01');
}

/** An optional `end` query parameter: the last UTC calendar day of an inclusive range. */
export function EndDayParam(description: string): PropertyDecorator {
  return dayParam(description, '2026-11-30');
}

function dayParam(description: string, example: string): PropertyDecorator {
  return applyDecorators(
    ApiPropertyOptional({
      type: String,
      format: 'date',
      pattern: '^\\d{4}-\\d{2}-\\d{2}$',
      maxLength: 10,
      description: `${description}; YYYY-MM-DD, e.g. ${example}`,
    }),
    IsOptional(),
    IsDay(),
  );
}
