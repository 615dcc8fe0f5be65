import fastifyMultipart from "@fastify/multipart";
import { uploadedFileSchema, uploadQuerySchema, uploadUsageSchema } from "@salelink/contracts";
import type { FastifyPluginAsyncZod } from "fastify-type-provider-zod";
import { z } from "zod";
import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import { AppError } from "../../lib/errors.ts";
import { multipartBodyDocs } from "../../plugins/openapi.ts";
import { attachmentDisposition, KEY_SPACES, verifyLocalSignature } from "../../providers/storage/index.ts";
import { roomLeft, uploadRateLimit, usageOf } from "./quota.ts";
import { receiveUpload, storeUpload, UPLOAD_RULES } from "./service.ts";

export interface UploadRoutesDeps {
  db: Db;
  config: Config;
}

const filesParamsSchema = z.object({ "*": z.string() });
/** Public renditions only: a paid original lives under `originals/` and has no route here. */
const mediaParamsSchema = z.object({
  folder: z.enum([KEY_SPACES.preview, KEY_SPACES.cover]),
  name: z.uuid(),
});

/** Rendition names are random and never reused: browsers and CDNs may keep them for good. */
const MEDIA_CACHE = "public, max-age=31536000, immutable";
const filesQuerySchema = z.object({
  purpose: z.string().optional(),
  expires: z.string().optional(),
  sig: z.string().optional(),
  name: z.string().optional(),
});

/** `POST /upload`, and `GET /files/*` serving the local disk storage's signed URLs. */
export const uploadRoutes: FastifyPluginAsyncZod<UploadRoutesDeps> = async (app, deps) => {
  const { db, config } = deps;
  const storage = app.services.storage;

  // Encapsulated: multipart bodies are parsed for this plugin's routes only.
  await app.register(fastifyMultipart, { limits: { files: 2, fields: 20, parts: 30 } });

  app.post(
    "/upload",
    {
      // Per account and hour, refused before a byte of the body is read (issue 16).
      config: {
        auth: "user",
        rateLimit: uploadRateLimit(config),
        swaggerTransform: multipartBodyDocs(
          {
            file: {
              type: "string",
              format: "binary",
              description: "The file: its type is read from its bytes; what is accepted depends on `use`",
            },
          },
          ["file"],
        ),
      },
      schema: {
        tags: ["uploads"],
        summary: "Upload one file (multipart field `file`); the type is read from its bytes",
        querystring: uploadQuerySchema,
        response: { 201: uploadedFileSchema },
      },
    },
    async (request, reply) => {
      const user = await request.requireUser();
      const { use } = request.query;
      if (!request.isMultipart()) throw new AppError("BadRequestException", "The request is malformed.");
      // The storage quota before any byte is stored: a full account is refused at once, and the
      // stream stops past what is left. One byte past a limit is enough to know it is exceeded.
      const room = await roomLeft(db, config, user.id);
      const limit = Math.min(UPLOAD_RULES[use].maxBytes, room);
      const parts = request.parts({ limits: { fileSize: limit + 1 } });
      const received = await receiveUpload(parts, use, room);
      const file = await storeUpload({ db, storage }, user.id, use, received, { config });
      return reply.code(201).send(file);
    },
  );

  app.get(
    "/profile/storage",
    {
      config: { auth: "user" },
      schema: {
        tags: ["uploads"],
        summary: "My storage: bytes used by my uploads, the quota, and the hourly upload limit",
        response: { 200: uploadUsageSchema },
      },
    },
    async (request) => usageOf(db, config, (await request.requireUser()).id),
  );

  app.get(
    "/media/:folder/:name",
    {
      schema: {
        tags: ["uploads"],
        summary: "A public rendition (blurred preview, cover, avatar) of an uploaded image",
        params: mediaParamsSchema,
      },
    },
    async (request, reply) => {
      const key = `${request.params.folder}/${request.params.name}`;
      const head = await storage.head(key);
      if (!head) throw new AppError("NotFoundException", "Not found.");
      const body = await storage.get(key);
      return (
        reply
          .type(head.contentType)
          .header("content-length", head.size)
          .header("x-content-type-options", "nosniff")
          .header("cache-control", MEDIA_CACHE)
          // Shown on other sites too: link previews in chats and social networks.
          .header("cross-origin-resource-policy", "cross-origin")
          .send(body)
      );
    },
  );

  if (storage.kind === "local") {
    app.get(
      "/files/*",
      {
        schema: {
          tags: ["uploads"],
          summary: "A stored object, through a signed URL of the local disk storage",
          params: filesParamsSchema,
          querystring: filesQuerySchema,
        },
      },
      async (request, reply) => {
        const key = request.params["*"];
        const { purpose, expires, sig, name } = request.query;
        const valid = verifyLocalSignature({
          key,
          purpose,
          expires,
          sig,
          secret: config.appSecret,
          ...(name !== undefined ? { downloadName: name } : {}),
        });
        if (!valid) throw new AppError("NotFoundException", "Not found.");
        const head = await storage.head(key);
        if (!head) throw new AppError("NotFoundException", "Not found.");
        const body = await storage.get(key);
        reply
          .type(head.contentType)
          .header("content-length", head.size)
          .header("x-content-type-options", "nosniff")
          .header("cache-control", "private, no-store");
        if (name !== undefined) reply.header("content-disposition", attachmentDisposition(name));
        return reply.send(body);
      },
    );
  }
};
