import type { UploadUsage } from "@salelink/contracts";
import type { FastifyRequest } from "fastify";
import type { Config } from "../../config.ts";
import type { DbOrTx } from "../../db/client.ts";
import { AppError } from "../../lib/errors.ts";
import { lockOwner, sumFileBytes } from "./queries.ts";

/*
 * Per-account limits on uploads (issue 16): a storage quota, checked before any byte is stored and
 * again, with the account's row locked, when the file is recorded (two uploads at once cannot both
 * take the last room); and a rate, per account and hour, refused before the body is read.
 */

const MiB = 1024 * 1024;

export const quotaBytesOf = (config: Config) => config.UPLOAD_QUOTA_MB * MiB;

/** 413 in the one error format: the spec's 'Maximum total size exceeded' on the file field. */
export const quotaExceeded = () =>
  new AppError("PayloadTooLargeException", "Your storage is full. Delete files you no longer need.", {
    errors: {
      file: ["Maximum total size exceeded"],
    },
  });

export const usedBytes = (db: DbOrTx, ownerId: string): Promise<number> => sumFileBytes(db, ownerId);

export async function usageOf(db: DbOrTx, config: Config, ownerId: string): Promise<UploadUsage> {
  return {
    usedBytes: await usedBytes(db, ownerId),
    quotaBytes: quotaBytesOf(config),
    uploadsPerHour: config.UPLOAD_RATE_PER_HOUR,
    unattachedTtlHours: config.UPLOAD_UNATTACHED_TTL_HOURS,
  };
}

/** Bytes the account may still store; refuses at once (before reading the body) when none. */
export async function roomLeft(db: DbOrTx, config: Config, ownerId: string): Promise<number> {
  const room = quotaBytesOf(config) - (await usedBytes(db, ownerId));
  if (room <= 0) throw quotaExceeded();
  return room;
}

/**
 * Inside the transaction that records a file: the owner's row locked, so concurrent uploads of one
 * account are counted one after the other; refuses when this file no longer fits.
 */
export async function claimRoom(
  tx: DbOrTx,
  config: Config,
  ownerId: string,
  sizeBytes: number,
): Promise<void> {
  await lockOwner(tx, ownerId);
  if ((await usedBytes(tx, ownerId)) + sizeBytes > quotaBytesOf(config)) throw quotaExceeded();
}

/** @fastify/rate-limit options for POST /upload: per account (not address), per hour. */
export function uploadRateLimit(config: Config) {
  return {
    max: config.UPLOAD_RATE_PER_HOUR,
    timeWindow: 3_600_000,
    // After the auth check (preValidation), before the handler reads a byte of the body.
    hook: "preHandler" as const,
    keyGenerator: async (request: FastifyRequest) =>
      `upload:${(await request.currentUser())?.id ?? request.ip}`,
    errorResponseBuilder: (_request: FastifyRequest, context: { after: string }) =>
      new AppError("RateLimitException", "You have uploaded too many files. Please try again in {after}.", {
        status: 429,
        params: { after: context.after },
      }),
  };
}
