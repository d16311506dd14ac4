import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { createPresignedPost } from '@aws-sdk/s3-presigned-post';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { ObjectStorage, SignedObject, UploadTarget } from './object-storage';

export interface S3Settings {
  bucket: string;
  region: string;
  /** custom endpoint for S3-compatible stores (MinIO, R2…); undefined = AWS */
  endpoint?: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  forcePathStyle: boolean;
}

/**
 * An S3-compatible bucket through the official AWS SDK. Uploads are presigned POSTs limited to
 * 1..size bytes and the declared Content-Type (as Plane's); downloads are presigned GETs with an
 * attachment disposition carrying the original file name.
 */
export class S3ObjectStorage implements ObjectStorage {
  readonly kind = 's3';
  private readonly client: S3Client;

  constructor(private readonly settings: S3Settings) {
    this.client = new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials:
        settings.accessKeyId && settings.secretAccessKey
          ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey }
          : undefined,
    });
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    await this.client.send(
      new PutObjectCommand({ Bucket: this.settings.bucket, Key: key, Body: data, ContentType: contentType }),
    );
  }

  async putFile(key: string, file: string, contentType: string): Promise<void> {
    const { size } = await stat(file);
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: key,
        Body: createReadStream(file),
        ContentLength: size,
        ContentType: contentType,
      }),
    );
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      const out = await this.client.send(new GetObjectCommand({ Bucket: this.settings.bucket, Key: key }));
      return out.Body ? Buffer.from(await out.Body.transformToByteArray()) : Buffer.alloc(0);
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async size(key: string): Promise<number | null> {
    try {
      const out = await this.client.send(new HeadObjectCommand({ Bucket: this.settings.bucket, Key: key }));
      return out.ContentLength ?? 0;
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new DeleteObjectCommand({ Bucket: this.settings.bucket, Key: key }));
  }

  async uploadTarget(obj: SignedObject, ttlSeconds: number): Promise<UploadTarget> {
    const post = await createPresignedPost(this.client, {
      Bucket: this.settings.bucket,
      Key: obj.key,
      Conditions: [
        ['content-length-range', 1, obj.size],
        ['eq', '$Content-Type', obj.contentType],
      ],
      Fields: { 'Content-Type': obj.contentType },
      Expires: ttlSeconds,
    });
    return { url: post.url, method: 'POST', fields: post.fields };
  }

  async downloadUrl(obj: SignedObject, ttlSeconds: number): Promise<string> {
    const cmd = new GetObjectCommand({
      Bucket: this.settings.bucket,
      Key: obj.key,
      ResponseContentDisposition: `attachment; filename*=UTF-8''${encodeURIComponent(obj.name)}`,
    });
    return getSignedUrl(this.client, cmd, { expiresIn: ttlSeconds });
  }
}

function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } };
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404;
}
