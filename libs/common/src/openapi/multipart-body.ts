import { SetMetadata } from '@nestjs/common';

/** Metadata key of `@MultipartBody()`. */
export const MULTIPART_BODY = 'meridian:multipart-body';

/** A part of a `multipart/form-data` body, as the OpenAPI document describes it. */
export interface MultipartPart {
  name: string;
  description: string;
  /** a file (`format: binary`); otherwise a text field */
  file?: boolean;
  required?: boolean;
  enum?: readonly string[];
}

/** What `@MultipartBody()` declares: the body's parts and what the success answer is. */
export interface MultipartBodySpec {
  parts: MultipartPart[];
  /** the status of the success answer and its description */
  status: number;
  answer: string;
}

/**
 * Declares that a handler reads a `multipart/form-data` body itself (no `@Body()` DTO): the OpenAPI
 * document (`buildOpenApiDocument`) gives the operation that request body and success answer.
 * Metadata only; nothing is parsed here.
 */
export const MultipartBody = (spec: MultipartBodySpec) => SetMetadata(MULTIPART_BODY, spec);
