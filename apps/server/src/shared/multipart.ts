import { MeridianError, validationError } from '#common';
import type { ReceivedFile } from '#domain';
import type { Request } from 'express';

/** `String.prototype.isWellFormed` (ES2024, Node 20+): false when a UTF-16 surrogate is unpaired. */
type CheckableString = string & { isWellFormed(): boolean };

/** A string PostgreSQL cannot store: a NUL, or a lone surrogate (as `screenInput` refuses in JSON bodies). */
function unstorable(s: string): boolean {
  return s.includes('\0') || !(s as CheckableString).isWellFormed();
}

/** Bytes a multipart upload may carry beyond the file: its fields, boundaries and part headers. */
export const FORM_OVERHEAD = 64 * 1024;

/** Reads a raw request body up to `limit` bytes; null when it is longer (the rest is left unread). */
export async function readBody(req: Request, limit: number): Promise<Buffer | null> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > limit) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** A buffered multipart body as form data (the platform's parser, undici's), or null when it does not parse. */
export async function parseForm(body: Buffer, contentType: string): Promise<FormData | null> {
  try {
    return await new Response(body, { headers: { 'content-type': contentType } }).formData();
  } catch {
    return null;
  }
}

/** A multipart upload: the file of the named field, and the form's text fields (the first of each name). */
export interface MultipartUpload {
  file: ReceivedFile;
  fields: Record<string, string>;
}

/**
 * Reads a `multipart/form-data` upload whose file is the part named `field` (Plane's legacy upload
 * routes: `asset`), at most `maxFileBytes` bytes, buffered whole (the limit is `FILE_SIZE_LIMIT`, 5 MiB
 * by default). The body is parsed by the platform's `FormData` parser, as the signed form uploads are.
 *
 * Errors, in the order they are checked:
 * - not `multipart/form-data`: a url-encoded form (no file possible) → 400 FILE_REQUIRED, anything
 *   else (JSON…) → 415 UNSUPPORTED_MEDIA_TYPE (Plane's `MultiPartParser`/`FormParser` refuse it);
 * - a `Content-Length`, or a body, over `maxFileBytes` + `FORM_OVERHEAD` → 413 ATTACHMENT_TOO_LARGE
 *   (`file_size_limit`), without reading the rest;
 * - a body that does not parse as multipart → 400 MALFORMED_REQUEST;
 * - no file part named `field` (none, a text value, another field's file, an empty file name) →
 *   400 FILE_REQUIRED; an empty file → 400 FILE_EMPTY; a file over `maxFileBytes` → 413
 *   ATTACHMENT_TOO_LARGE.
 */
export async function readMultipartUpload(req: Request, field: string, maxFileBytes: number): Promise<MultipartUpload> {
  const contentType = req.headers['content-type'] ?? '';
  const missing = () =>
    new MeridianError('FILE_REQUIRED', `Send the file as multipart/form-data in the \`${field}\` field.`);
  if (!/^multipart\/form-data\s*;/i.test(contentType)) {
    if (/^application\/x-www-form-urlencoded\b/i.test(contentType)) throw missing();
    throw new MeridianError(
      'UNSUPPORTED_MEDIA_TYPE',
      `Send the file as multipart/form-data in the \`${field}\` field.`,
    );
  }
  const tooLarge = () =>
    new MeridianError('ATTACHMENT_TOO_LARGE', `The file may have at most ${maxFileBytes} bytes.`, {
      file_size_limit: maxFileBytes,
    });
  const limit = maxFileBytes + FORM_OVERHEAD;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw tooLarge();
  // a body some middleware already consumed cannot carry the file
  if (req.readableEnded) throw missing();
  const body = await readBody(req, limit);
  if (body === null) throw tooLarge();
  const form = await parseForm(body, contentType);
  if (!form) throw new MeridianError('MALFORMED_REQUEST', 'The multipart/form-data body could not be parsed.');
  const part = form.get(field);
  if (!(part instanceof File) || part.name === '') {
    const other = [...form.entries()].find(([, v]) => v instanceof File && v.name !== '')?.[0];
    throw other === undefined
      ? missing()
      : new MeridianError('FILE_REQUIRED', `The file must be sent in the \`${field}\` field, not \`${other}\`.`);
  }
  if ([part.name, ...[...form.entries()].flatMap(([k, v]) => (typeof v === 'string' ? [k, v] : [k]))].some(unstorable))
    throw new MeridianError('INVALID_CHARACTERS');
  if (part.size === 0) throw new MeridianError('FILE_EMPTY');
  if (part.size > maxFileBytes) throw tooLarge();
  const fields: Record<string, string> = Object.create(null) as Record<string, string>;
  for (const [name, value] of form.entries())
    if (typeof value === 'string' && !Object.hasOwn(fields, name)) fields[name] = value;
  return { file: { name: part.name, type: part.type, data: Buffer.from(await part.arrayBuffer()) }, fields };
}

/**
 * The `name` of a form's `attributes` field (Plane's `FileAsset.attributes`, JSON text in a form),
 * undefined without one; 422 VALIDATION_ERROR when it is not a JSON object or its `name` not a string.
 * Meridian keeps `type` and `size` as the file has them: only the name is the client's.
 */
export function attributesName(fields: Record<string, string>): string | undefined {
  const raw = fields.attributes;
  if (raw === undefined || raw.trim() === '') return undefined;
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    throw validationError({ attributes: ['Value must be valid JSON.'] });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw validationError({ attributes: ['Must be a JSON object.'] });
  const name = (value as { name?: unknown }).name;
  if (name !== undefined && name !== null && typeof name !== 'string')
    throw validationError({ attributes: ['`name` must be a string.'] });
  if (typeof name === 'string' && unstorable(name)) throw new MeridianError('INVALID_CHARACTERS');
  return typeof name === 'string' && name.trim() ? name.trim() : undefined;
}
