import { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from "@aws-sdk/client-s3";
import { getSignedUrl } from "@aws-sdk/s3-request-presigner";
import { attachmentDisposition } from "./disposition.ts";
import type { StorageEnv } from "./env.ts";
import { assertKeyForPurpose, assertValidKey } from "./keys.ts";
import {
  type ObjectHead,
  ObjectNotFoundError,
  type ObjectStorage,
  type PutOptions,
  type SignedUrlOptions,
} from "./types.ts";

/** SigV4 presigned URLs cannot live longer than seven days. */
const MAX_PRESIGN_SECONDS = 7 * 24 * 3600;

export interface S3Settings {
  endpoint?: string;
  region: string;
  bucket: string;
  accessKeyId: string;
  secretAccessKey: string;
  forcePathStyle: boolean;
}

export function s3Settings(env: StorageEnv): S3Settings {
  // storageEnvSchema already requires them; checked again so a half-built env fails loudly here.
  if (!env.S3_BUCKET || !env.S3_ACCESS_KEY_ID || !env.S3_SECRET_ACCESS_KEY)
    throw new Error(
      "S3_BUCKET, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are required when STORAGE_PROVIDER is s3",
    );
  return {
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    bucket: env.S3_BUCKET,
    accessKeyId: env.S3_ACCESS_KEY_ID,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: env.S3_FORCE_PATH_STYLE,
  };
}

/** Any S3-compatible service (AWS, MinIO, R2…): what several API instances share. */
export class S3ObjectStorage implements ObjectStorage {
  readonly kind = "s3" as const;
  private readonly client: S3Client;
  private readonly bucket: string;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.client = new S3Client({
      endpoint: settings.endpoint,
      region: settings.region,
      forcePathStyle: settings.forcePathStyle,
      credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      // The SDK's default adds CRC checksums with aws-chunked bodies, which several S3-compatible
      // services reject; checksums are sent only where the API requires them.
      requestChecksumCalculation: "WHEN_REQUIRED",
      responseChecksumValidation: "WHEN_REQUIRED",
    });
  }

  async put(key: string, body: Buffer | Readable, options: PutOptions): Promise<void> {
    assertValidKey(key);
    if (!Buffer.isBuffer(body) && options.contentLength === undefined) {
      // S3 has no chunked upload without a length: the caller spools to disk and passes the size.
      throw new Error("contentLength is required to stream a body to S3");
    }
    await this.client.send(
      new PutObjectCommand({
        Bucket: this.bucket,
        Key: key,
        Body: body,
        ContentType: options.contentType,
        ContentLength: options.contentLength ?? (Buffer.isBuffer(body) ? body.length : undefined),
      }),
    );
  }

  async get(key: string): Promise<Readable> {
    assertValidKey(key);
    try {
      const answer = await this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key }));
      // In Node the SDK's body is an http.IncomingMessage, a Readable.
      if (!(answer.Body instanceof Readable)) throw new Error(`S3 answered no readable body for ${key}`);
      return answer.Body;
    } catch (error) {
      if (isNotFound(error)) throw new ObjectNotFoundError(key);
      throw error;
    }
  }

  async head(key: string): Promise<ObjectHead | null> {
    assertValidKey(key);
    try {
      const answer = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        size: answer.ContentLength ?? 0,
        contentType: answer.ContentType ?? "application/octet-stream",
      };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  async signedUrl(key: string, options: SignedUrlOptions): Promise<string> {
    // SigV4 binds the exact key; the purpose is enforced here, before anything is signed.
    assertKeyForPurpose(key, options.purpose);
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ...(options.downloadName !== undefined
        ? { ResponseContentDisposition: attachmentDisposition(options.downloadName) }
        : {}),
    });
    const expiresIn = Math.min(MAX_PRESIGN_SECONDS, Math.max(1, Math.floor(options.expiresInSeconds)));
    return getSignedUrl(this.client, command, { expiresIn });
  }

  /** Closes the client's sockets (tests, shutdown). */
  destroy(): void {
    this.client.destroy();
  }
}

function isNotFound(error: unknown): boolean {
  // HEAD answers carry no body, so the SDK can only report the status: name "NotFound".
  return (
    error instanceof S3ServiceException &&
    (error.name === "NoSuchKey" || error.name === "NotFound" || error.$metadata.httpStatusCode === 404)
  );
}
