import type { ErrorResponse, FieldErrors } from "@salelink/contracts";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { hasZodFastifySchemaValidationErrors } from "fastify-type-provider-zod";
import { z } from "zod";
import { isDatabaseUnavailable } from "../db/client.ts";
import { isOurMessage, translate } from "../i18n/messages.ts";
import { AppError } from "../lib/errors.ts";
import { isUnstorableText } from "../lib/pg-errors.ts";
import { requestLocale } from "./i18n.ts";

/** fastify-type-provider-zod's form of a zod issue: `code` as `keyword`, the rest in `params`. */
type Issue = { keyword?: string; instancePath?: string; message?: string; params?: Record<string, unknown> };
type ZodIssue = Parameters<ReturnType<typeof z.locales.en>["localeError"]>[0];

const zodLocales = { en: z.locales.en(), fr: z.locales.fr(), es: z.locales.es() };

/** An issue's message in the caller's language: the contract's own wording if ours, else zod's. */
function issueMessage(issue: Issue, locale: keyof typeof zodLocales): string {
  if (issue.message && isOurMessage(issue.message)) return translate(locale, issue.message);
  if (issue.keyword && locale !== "en") {
    const raw = { ...issue.params, code: issue.keyword, path: [] };
    const localized = zodLocales[locale].localeError(raw as unknown as ZodIssue);
    const text = typeof localized === "string" ? localized : localized?.message;
    if (text) return text;
  }
  return issue.message ?? "Invalid value";
}

function fieldErrors(
  issues: readonly Issue[],
  prefix: string | undefined,
  locale: keyof typeof zodLocales,
): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const key = (issue.instancePath ?? "").replace(/^\//, "").replaceAll("/", ".") || (prefix ?? "_");
    const list = out[key] ?? [];
    list.push(issueMessage(issue, locale));
    out[key] = list;
  }
  return out;
}

/** Maps every failure to the one error format of the contracts; never leaks a stack trace. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler(sendError);

  app.setNotFoundHandler((request, reply) => {
    const body: ErrorResponse = {
      statusCode: 404,
      error: "NotFoundException",
      message: translate(requestLocale(request), "Not found."),
    };
    return reply.code(404).send(body);
  });
}

/**
 * The same mapping for what the router refuses before any route or hook runs (a path parameter
 * longer than the router takes, a malformed URL): Fastify's `frameworkErrors` option.
 */
export function frameworkErrors(err: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  void sendError(err, request, reply);
}

function sendError(err: FastifyError | AppError, request: FastifyRequest, reply: FastifyReply) {
  let body: ErrorResponse;
  // Worked out here rather than read from the i18n plugin, so the handler stands on its own.
  const locale = requestLocale(request);
  const t = (text: string) => translate(locale, text, err instanceof AppError ? err.params : undefined);
  if (err instanceof AppError) {
    body = { statusCode: err.statusCode, error: err.exception, message: t(err.message) };
    if (err.errors) {
      body.errors = Object.fromEntries(
        Object.entries(err.errors).map(([field, list]) => [field, list.map(t)]),
      );
    }
    if (err.headers) reply.headers(err.headers);
  } else if (hasZodFastifySchemaValidationErrors(err)) {
    body = {
      statusCode: 400,
      error: "ValidationException",
      message: t("Some fields are invalid."),
      errors: fieldErrors(err.validation, err.validationContext, locale),
    };
  } else if (err.statusCode === 429) {
    body = { statusCode: 429, error: "RateLimitException", message: t(err.message) };
  } else if (err.statusCode === 413) {
    body = { statusCode: 413, error: "PayloadTooLargeException", message: t("The request is too large.") };
  } else if (err.statusCode === 404) {
    body = { statusCode: 404, error: "NotFoundException", message: t("Not found.") };
  } else if (isUnstorableText(err) || (err.statusCode && err.statusCode >= 400 && err.statusCode < 500)) {
    // Malformed JSON, bad content type and other client faults detected by Fastify itself.
    body = { statusCode: 400, error: "BadRequestException", message: t("The request is malformed.") };
  } else if (isDatabaseUnavailable(err)) {
    // A passing outage, not a bug: a transaction cut before its commit was rolled back, and the
    // routes' own idempotence makes a retry safe should the cut have come during the commit.
    request.log.error({ err: err.message }, "database unavailable");
    body = {
      statusCode: 503,
      error: "ServiceUnavailableException",
      message: t("The service is briefly unavailable. Please try again in a moment."),
    };
  } else {
    request.log.error({ err }, "unhandled error");
    body = { statusCode: 500, error: "InternalServerErrorException", message: t("Something went wrong.") };
  }
  return reply.code(body.statusCode).send(body);
}
