import { ValidationPipe, ValidationPipeOptions } from '@nestjs/common';
import type { ValidationError as ClassValidatorError } from 'class-validator';
import { ValidationError } from '../errors';

/** Flattens nested class-validator errors into `path -> messages`, e.g. `items.0.orderId`. */
export function flattenValidationErrors(
  errors: ClassValidatorError[],
  parent = '',
): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const e of errors) {
    const path = parent ? `${parent}.${e.property}` : e.property;
    if (e.constraints) {
      out[path] = Object.values(e.constraints).map((m) =>
        m.startsWith(e.property) ? `${path}${m.slice(e.property.length)}` : m,
      );
    }
    if (e.children?.length) Object.assign(out, flattenValidationErrors(e.children, path));
  }
  return out;
}

export function validationErrorFrom(errors: ClassValidatorError[]): ValidationError {
  const fields = flattenValidationErrors(errors);
  const messages = Object.values(fields).flat();
  const message = messages.length ? messages.join('; ') : 'Request validation failed';
  return new ValidationError(message, { fields });
}

/**
 * The global pipe: transform to DTO classes, reject unknown properties (a mature API refuses
 * silently ignored typos), answer 422 in the route's error shape. Endpoints the spec says ignore
 * unknown keys use `lenientBody(Dto)` instead.
 */
export function createValidationPipe(overrides: ValidationPipeOptions = {}): ValidationPipe {
  return new ValidationPipe({
    transform: true,
    whitelist: true,
    forbidNonWhitelisted: true,
    forbidUnknownValues: true,
    validationError: { target: false, value: false },
    exceptionFactory: validationErrorFrom,
    ...overrides,
  });
}

/** Validates against `dto` but drops unknown keys instead of refusing them. Use with a param typed `object`. */
export function lenientBody(dto: new () => object): ValidationPipe {
  return createValidationPipe({ forbidNonWhitelisted: false, expectedType: dto });
}
