import { Injectable, PipeTransform } from '@nestjs/common';
import { MeridianError } from '../errors/meridian.error';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/**
 * Path ids are UUIDs; anything else names no object, so it is a 404 (as Plane's `<uuid:…>`
 * route converters answer), never a database error.
 */
@Injectable()
export class UuidPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!isUuid(value)) throw new MeridianError('NOT_FOUND');
    return value.toLowerCase();
  }
}
