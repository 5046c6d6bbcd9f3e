import { ValidationPipe, type ValidationError as ClassValidatorError } from '@nestjs/common';
import { ValidationError } from '@app/shared';

/** DTO validation for every endpoint: unknown fields refused, messages that name the field. */
export function createValidationPipe(): ValidationPipe {
  return new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    exceptionFactory: (errors) => new ValidationError(describe(errors)),
  });
}

function describe(errors: ClassValidatorError[], parent = ''): string {
  return errors
    .flatMap((error) => {
      const path = parent ? `${parent}.${error.property}` : error.property;
      const own = Object.values(error.constraints ?? {}).map((message) =>
        message.startsWith(error.property) ? `${path}${message.slice(error.property.length)}` : `${path}: ${message}`,
      );
      const nested = error.children?.length ? [describe(error.children, path)] : [];
      return [...own, ...nested];
    })
    .join('; ');
}
