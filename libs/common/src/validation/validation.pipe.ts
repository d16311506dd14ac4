import { ArgumentMetadata, Injectable, PipeTransform, ValidationError, ValidationPipe } from '@nestjs/common';
import { MeridianError, validationError } from '../errors/meridian.error';
import { NOT_NULL_CONSTRAINT } from './optional.decorators';

/**
 * Flattens class-validator errors to Plane's `{field: [messages]}` map (nested as `a.b`); a `null`
 * refused by `IsOptionalNonNull` is reported alone ("This field may not be null.").
 */
export function flattenValidationErrors(errors: ValidationError[], prefix = ''): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const error of errors) {
    const field = prefix ? `${prefix}.${error.property}` : error.property;
    if (error.constraints?.[NOT_NULL_CONSTRAINT]) {
      out[field] = [error.constraints[NOT_NULL_CONSTRAINT]];
    } else if (error.constraints) {
      out[field] = Object.values(error.constraints).map((m) =>
        m === `property ${error.property} should not exist` ? 'This field is not allowed.' : m,
      );
    }
    if (error.children?.length) Object.assign(out, flattenValidationErrors(error.children, field));
  }
  return out;
}

/**
 * Global input validation (bound as `APP_PIPE`): DTO bodies are whitelisted (unknown fields are
 * rejected), transformed and validated. A failure is a 422 `VALIDATION_ERROR` with an `errors`
 * map; a body that is not a JSON object where one is expected is a 400 `MALFORMED_REQUEST`.
 */
@Injectable()
export class RequestValidationPipe implements PipeTransform {
  private readonly inner = new ValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    validateCustomDecorators: false,
    exceptionFactory: (errors) => validationError(flattenValidationErrors(errors)),
  });

  async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && isDto(metadata.metatype)) {
      if (value === undefined || value === null) value = {};
      if (typeof value !== 'object' || Array.isArray(value)) throw new MeridianError('MALFORMED_REQUEST');
    }
    return this.inner.transform(value, metadata);
  }
}

function isDto(metatype: unknown): boolean {
  return typeof metatype === 'function' && ![String, Number, Boolean, Array, Object].includes(metatype as never);
}
