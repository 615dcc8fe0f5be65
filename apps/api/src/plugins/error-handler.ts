import type { ErrorResponse, FieldErrors } from "@salelink/contracts";
import type { FastifyError, FastifyInstance } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { AppError } from "../lib/errors.ts";

type Issue = { instancePath?: string; message?: string; params?: { issue?: { path?: PropertyKey[] } } };

function fieldErrors(issues: readonly Issue[], prefix: string | undefined): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const issuePath = issue.params?.issue?.path;
    const key =
      issuePath && issuePath.length > 0
        ? issuePath.map(String).join(".")
        : (issue.instancePath ?? "").replace(/^\//, "").replaceAll("/", ".") || (prefix ?? "_");
    const list = out[key] ?? [];
    list.push(issue.message ?? "Invalid value");
    out[key] = list;
  }
  return out;
}

/** Maps every failure to the one error format of the contracts; never leaks a stack trace. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError, request, reply) => {
    let body: ErrorResponse;
    if (err instanceof AppError) {
      body = { statusCode: err.statusCode, error: err.exception, message: err.message };
      if (err.errors) body.errors = err.errors;
      if (err.headers) reply.headers(err.headers);
    } else if (hasZodFastifySchemaValidationErrors(err)) {
      body = {
        statusCode: 400,
        error: "ValidationException",
        message: "Some fields are invalid.",
        errors: fieldErrors(err.validation, err.validationContext),
      };
    } else if (err.statusCode === 429) {
      body = { statusCode: 429, error: "RateLimitException", message: err.message };
    } else if (err.statusCode === 413) {
      body = { statusCode: 413, error: "PayloadTooLargeException", message: "The request is too large." };
    } else if (err.statusCode === 404) {
      body = { statusCode: 404, error: "NotFoundException", message: "Not found." };
    } else if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
      // Malformed JSON, bad content type and other client faults detected by Fastify itself.
      body = { statusCode: 400, error: "BadRequestException", message: "The request is malformed." };
    } else {
      request.log.error({ err }, "unhandled error");
      body = { statusCode: 500, error: "InternalServerErrorException", message: "Something went wrong." };
    }
    return reply.code(body.statusCode).send(body);
  });

  app.setNotFoundHandler((_request, reply) => {
    const body: ErrorResponse = { statusCode: 404, error: "NotFoundException", message: "Not found." };
    return reply.code(404).send(body);
  });
}
