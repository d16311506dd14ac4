import { Transform } from 'class-transformer';
import { ValidateBy, ValidateIf } from 'class-validator';

/** Constraint name of `IsOptionalNonNull`'s null check (the pipe reports it alone). */
export const NOT_NULL_CONSTRAINT = 'isNotNull';
/** Plane's (DRF's) message for `null` on a field whose column cannot be empty. */
export const NOT_NULL_MESSAGE = 'This field may not be null.';

/**
 * The field may be left out, but not sent as `null`: the other validators are skipped only when
 * the key is absent, and `null` fails with "This field may not be null." (a 422
 * `VALIDATION_ERROR`, the only message reported for the field). For fields whose column is NOT
 * NULL, where class-validator's `@IsOptional()` would let `null` through to the database.
 */
export function IsOptionalNonNull(): PropertyDecorator {
  return (target: object, key: string | symbol) => {
    ValidateIf((_: object, value: unknown) => value !== undefined)(target, key);
    ValidateBy({
      name: NOT_NULL_CONSTRAINT,
      validator: { validate: (value: unknown) => value !== null, defaultMessage: () => NOT_NULL_MESSAGE },
    })(target, key);
  };
}

/**
 * `null` reads as the empty list: for optional lists of related ids (`assignees`, `labels`,
 * `members`…), where a client clearing the list may send `null`. Place before `@IsArray()`.
 */
export function NullAsEmptyList(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => (value === null ? [] : value));
}

/**
 * `""` reads as `null`: for optional ids of related objects (`state_id`, `parent_id`,
 * `estimate_point`…). Plane's serializers do the same (DRF's `RelatedField.run_validation` turns an
 * empty string into `None`), and Plane's web app sends `""` for a relation left empty in its forms.
 */
export function EmptyAsNull(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => (value === '' ? null : value));
}
