import { ApiParam } from '@nestjs/swagger';

export const OBJECT_ID_PATTERN = '^[0-9a-fA-F]{24}$';

/**
 * A path id of a stored record (24 hexadecimal characters). Anything else answers 404 like an
 * unknown id, so the pattern documents the domain without adding a new refusal.
 */
export const ObjectIdParam = (
  name: string,
  example: string,
  description = 'Record id (24 hexadecimal characters)',
) =>
  ApiParam({
    name,
    description,
    example,
    schema: { type: 'string', pattern: OBJECT_ID_PATTERN, minLength: 24, maxLength: 24 },
  });
