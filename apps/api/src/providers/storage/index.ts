import type { StorageEnv } from "./env.ts";
import { LocalDiskStorage } from "./local.ts";
import { S3ObjectStorage, s3Settings } from "./s3.ts";
import type { ObjectStorage } from "./types.ts";

export { attachmentDisposition } from "./disposition.ts";
export { type StorageEnv, storageEnvSchema } from "./env.ts";
export {
  assertKeyForPurpose,
  assertValidKey,
  InvalidObjectKeyError,
  KEY_SPACES,
  keyFitsPurpose,
  newObjectKey,
  SIGNED_URL_PURPOSES,
  type SignedUrlPurpose,
} from "./keys.ts";
export {
  type LocalDiskOptions,
  LocalDiskStorage,
  type LocalSignatureParams,
  verifyLocalSignature,
} from "./local.ts";
export { S3ObjectStorage, type S3Settings, s3Settings } from "./s3.ts";
export {
  type ObjectHead,
  ObjectNotFoundError,
  type ObjectStorage,
  type PutOptions,
  type SignedUrlOptions,
} from "./types.ts";

/**
 * The storage STORAGE_PROVIDER names. `signingSecret` signs the local disk's download URLs (pass
 * APP_SECRET: a per-purpose key is derived from it); S3 signs its own with the access key.
 */
export function createObjectStorage(
  env: StorageEnv,
  options: { apiPublicUrl: string; signingSecret: string },
): ObjectStorage {
  if (env.STORAGE_PROVIDER === "s3") return new S3ObjectStorage(s3Settings(env));
  return new LocalDiskStorage({
    root: env.UPLOADS_DIR,
    apiPublicUrl: options.apiPublicUrl,
    signingSecret: options.signingSecret,
  });
}
