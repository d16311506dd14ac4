import { createHmac, timingSafeEqual } from 'node:crypto';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';

/** Where and how a client uploads an object (Plane's `upload_data`). */
export interface UploadTarget {
  url: string;
  /**
   * `POST` multipart with `fields` first and the file last as `file` (an S3 presigned POST, and the
   * local store's form uploads); `PUT` with the raw bytes as body (the local store's v1 uploads)
   */
  method: 'PUT' | 'POST';
  fields: Record<string, string>;
}

/** What a store needs to know about the object behind a signed URL. */
export interface SignedObject {
  /** the asset id the URL is for (local store) */
  id: string;
  key: string;
  contentType: string;
  /** upload: the most bytes accepted */
  size: number;
  /** download: the original file name (content disposition) */
  name: string;
}

/**
 * A blob store for uploaded files, addressed by key. `origin` is Meridian's configured public base
 * (`API_BASE_URL`, never a request's `Host`), used by stores whose URLs Meridian serves itself.
 * TTLs are in seconds.
 */
export interface ObjectStorage {
  readonly kind: 'local' | 's3';
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  /** stores the file at `file` (a local path) under `key`, streamed, never read whole into memory */
  putFile(key: string, file: string, contentType: string): Promise<void>;
  /** null when the object does not exist */
  get(key: string): Promise<Buffer | null>;
  /** the object's size in bytes, null when it does not exist */
  size(key: string): Promise<number | null>;
  /** idempotent */
  delete(key: string): Promise<void>;
  /** `form`: the client posts a multipart form as to an S3 presigned POST (the web app always does) */
  uploadTarget(obj: SignedObject, ttlSeconds: number, origin: string, form?: boolean): Promise<UploadTarget>;
  downloadUrl(obj: SignedObject, ttlSeconds: number, origin: string): Promise<string>;
}

/** Injection token of the configured `ObjectStorage`. */
export const OBJECT_STORAGE = Symbol('OBJECT_STORAGE');

export type SignedOperation = 'upload' | 'download';

/**
 * HMAC-SHA256 signatures of Meridian's own short-lived upload and download URLs. The signing key
 * is derived from `SECRET_KEY` (never the key itself), and the signed text binds the operation,
 * the asset id and the expiry (unix seconds).
 */
export class UrlSigner {
  private readonly key: Buffer;

  constructor(secretKey: string) {
    this.key = createHmac('sha256', secretKey).update('meridian/asset-url-signing/v1').digest();
  }

  sign(op: SignedOperation, assetId: string, expires: number): string {
    return createHmac('sha256', this.key).update(`${op}\n${assetId.toLowerCase()}\n${expires}`).digest('hex');
  }

  /** 'ok', 'expired' or 'invalid' (wrong, tampered or malformed signature). */
  verify(
    op: SignedOperation,
    assetId: string,
    expires: string | undefined,
    signature: string | undefined,
    now = Date.now(),
  ): 'ok' | 'expired' | 'invalid' {
    if (!expires || !/^\d{1,12}$/.test(expires) || !signature || !/^[0-9a-f]{64}$/.test(signature)) return 'invalid';
    const expected = Buffer.from(this.sign(op, assetId, Number(expires)), 'hex');
    if (!timingSafeEqual(expected, Buffer.from(signature, 'hex'))) return 'invalid';
    if (Number(expires) * 1000 < now) return 'expired';
    return 'ok';
  }

  /** `?expires=…&signature=…` for `op` on the asset, valid `ttlSeconds` from now. */
  queryString(op: SignedOperation, assetId: string, ttlSeconds: number): string {
    const expires = Math.floor(Date.now() / 1000) + ttlSeconds;
    return `expires=${expires}&signature=${this.sign(op, assetId, expires)}`;
  }
}

/** Path of Meridian's signed asset routes (`external-v1` AssetTransferController), under `/api/v1`. */
export const ASSET_TRANSFER_PATH = '/api/v1/assets';

/**
 * Files on local disk under `root` (`UPLOADS_DIR`, default `DATA_DIR/uploads`); uploads and
 * downloads go through Meridian's own HMAC-signed URLs (`/api/v1/assets/{id}/upload|download`).
 * The upload URL takes the raw bytes (`PUT`) or, like an S3 presigned POST, a multipart form whose
 * `file` part is the file (`POST`, what the web app sends).
 */
export class LocalObjectStorage implements ObjectStorage {
  readonly kind = 'local';

  constructor(
    private readonly root: string,
    private readonly signer: UrlSigner,
  ) {}

  private file(key: string): string {
    const full = path.resolve(this.root, key);
    if (!full.startsWith(path.resolve(this.root) + path.sep))
      throw new Error('storage key escapes the uploads directory');
    return full;
  }

  async put(key: string, data: Buffer): Promise<void> {
    const file = this.file(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await fs.writeFile(tmp, data);
    await fs.rename(tmp, file);
  }

  async putFile(key: string, source: string): Promise<void> {
    const file = this.file(key);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
    await fs.copyFile(source, tmp);
    await fs.rename(tmp, file);
  }

  async get(key: string): Promise<Buffer | null> {
    try {
      return await fs.readFile(this.file(key));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await fs.stat(this.file(key))).size;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await fs.rm(this.file(key), { force: true });
  }

  async uploadTarget(obj: SignedObject, ttlSeconds: number, origin: string, form = false): Promise<UploadTarget> {
    return {
      url: `${origin}${ASSET_TRANSFER_PATH}/${obj.id}/upload/?${this.signer.queryString('upload', obj.id, ttlSeconds)}`,
      method: form ? 'POST' : 'PUT',
      fields: { 'Content-Type': obj.contentType, key: obj.key },
    };
  }

  async downloadUrl(obj: SignedObject, ttlSeconds: number, origin: string): Promise<string> {
    return `${origin}${ASSET_TRANSFER_PATH}/${obj.id}/download/?${this.signer.queryString('download', obj.id, ttlSeconds)}`;
  }
}
