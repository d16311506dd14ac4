import { ArgumentMetadata, Injectable, PipeTransform, ValidationError, ValidationPipe } from '@nestjs/common';
import type { ValidatorOptions } from 'class-validator';
import { MeridianError, validationError } from '../errors/meridian.error';
import { coerceLikeDrf } from './drf-coercion';
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

/** Bodies of requests whose unknown fields are dropped, not refused (`ignoreUnknownFields`). */
const lenientBodies = new WeakSet<object>();

/**
 * Marks a parsed request body so that `RequestValidationPipe` drops its unknown fields instead of
 * refusing them: the App API, whose Plane serializers ignore fields they do not declare (the web
 * app sends some: docs/decisions.md "Unknown body fields"). Called by the body parsing middleware,
 * which knows the path; the pipe sees only the body, the same object.
 */
export function ignoreUnknownFields(body: object): void {
  lenientBodies.add(body);
}

/**
 * Nest's `ValidationPipe` that applies Django REST framework's coercions (`coerceLikeDrf`) to the
 * transformed DTO, nested DTOs included, just before it is validated.
 */
class DrfValidationPipe extends ValidationPipe {
  protected override validate(
    object: object,
    validatorOptions?: ValidatorOptions,
  ): Promise<ValidationError[]> | ValidationError[] {
    coerceLikeDrf(object);
    return super.validate(object, validatorOptions);
  }
}

/**
 * Global input validation (bound as `APP_PIPE`): DTO bodies are whitelisted, transformed and
 * validated. An unknown field is refused (422, "This field is not allowed.") on the External API,
 * the public, instance and auth routes, and dropped silently on the App API (`ignoreUnknownFields`).
 * Before validation, number and boolean fields take the strings Django REST framework coerces
 * (`"20"` for an integer, `"true"`/`"1"` for a boolean: `coerceLikeDrf`), as Plane's serializers do.
 * A failure is a 422 `VALIDATION_ERROR` with an `errors` map; a body that is not a JSON object
 * where one is expected is a 400 `MALFORMED_REQUEST`.
 */
@Injectable()
export class RequestValidationPipe implements PipeTransform {
  private readonly strict = new DrfValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: true,
    transform: true,
    validateCustomDecorators: false,
    exceptionFactory: (errors) => validationError(flattenValidationErrors(errors)),
  });
  private readonly lenient = new DrfValidationPipe({
    whitelist: true,
    forbidNonWhitelisted: false,
    transform: true,
    validateCustomDecorators: false,
    exceptionFactory: (errors) => validationError(flattenValidationErrors(errors)),
  });

  transform(value: unknown, metadata: ArgumentMetadata): unknown {
    // what Nest's ValidationPipe hands back unchanged, without its promise: a route's request and
    // principal (custom decorators, not validated), a whole query object and a string parameter
    if (passesUnchanged(value, metadata)) return value;
    return this.validated(value, metadata);
  }

  private async validated(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && isDto(metadata.metatype)) {
      if (value === undefined || value === null) value = {};
      if (typeof value !== 'object' || Array.isArray(value)) throw new MeridianError('MALFORMED_REQUEST');
      if (value !== null && lenientBodies.has(value)) return this.lenient.transform(value, metadata);
    }
    return this.strict.transform(value, metadata);
  }
}

/**
 * Whether Nest's ValidationPipe (with `transform: true`, `validateCustomDecorators: false`) would
 * return `value` as it is: a custom decorator's value, a whole `@Query()` object (metatype
 * `Object`), or a string for a `String` (or untyped) parameter or query field.
 */
function passesUnchanged(value: unknown, { type, metatype }: ArgumentMetadata): boolean {
  if (type === 'custom') return true;
  if (type === 'body') return false;
  if (metatype === Object) return true;
  return typeof value === 'string' && (metatype === String || metatype === undefined);
}

function isDto(metatype: unknown): boolean {
  return typeof metatype === 'function' && ![String, Number, Boolean, Array, Object].includes(metatype as never);
}
