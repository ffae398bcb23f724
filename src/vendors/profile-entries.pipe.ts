import { Injectable, PipeTransform } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validateSync } from 'class-validator';
import { ValidationError } from '../common/errors';
import { flattenValidationErrors } from '../common/http/validation';
import { PROFILE_ENTRIES_MAX, ProfileEntryDto } from './dto/vendor.dto';

/**
 * PUT /v1/vendors/{id}/profile takes a bare JSON array (spec §4.3), which the global pipe does not
 * validate. Each entry is checked like a DTO body: `{field, value}` and nothing else → else 422.
 */
@Injectable()
export class ProfileEntriesPipe implements PipeTransform<unknown, ProfileEntryDto[]> {
  transform(value: unknown): ProfileEntryDto[] {
    if (!Array.isArray(value)) {
      const message = 'The body must be a JSON array of {field, value} entries';
      throw new ValidationError(message, { fields: { body: [message] } });
    }
    if (value.length > PROFILE_ENTRIES_MAX) {
      const message = `At most ${PROFILE_ENTRIES_MAX} profile entries per request`;
      throw new ValidationError(message, { fields: { body: [message] } });
    }
    const fields: Record<string, string[]> = {};
    const entries = value.map((item: unknown, i) => {
      if (item === null || typeof item !== 'object' || Array.isArray(item)) {
        fields[String(i)] = [`${i} must be an object {field, value}`];
        return undefined as unknown as ProfileEntryDto;
      }
      const dto = plainToInstance(ProfileEntryDto, item);
      const errors = validateSync(dto, { whitelist: true, forbidNonWhitelisted: true });
      Object.assign(fields, flattenValidationErrors(errors, String(i)));
      return dto;
    });
    if (Object.keys(fields).length) {
      throw new ValidationError(Object.values(fields).flat().join('; '), { fields });
    }
    return entries;
  }
}
