import { z } from "zod";

/** Every exception name the API answers with, and the HTTP status it maps to. */
export const exceptionStatus = {
  ValidationException: 400,
  BadRequestException: 400,
  InvalidCredentialsException: 400,
  UnauthorizedException: 401,
  UnverifiedAccountException: 401,
  TwoFactorAuthenticationRequiredException: 401,
  ForbiddenException: 403,
  NotFoundException: 404,
  ConflictException: 409,
  PayloadTooLargeException: 413,
  RateLimitException: 429,
  /** A reporter has sent the most reports a day allows (not "already reported": see POST /report). */
  ReportLimitException: 429,
  MaintenanceException: 503,
  /** A dependency (the database) is unreachable for a moment; the same request may be retried. */
  ServiceUnavailableException: 503,
  /** The payment provider could not be reached or refused the request. */
  PaymentProviderException: 502,
  InternalServerErrorException: 500,
} as const;

export type ExceptionName = keyof typeof exceptionStatus;
export const exceptionNames = Object.keys(exceptionStatus) as [ExceptionName, ...ExceptionName[]];

/** Per-field messages: `{ "email": ["Invalid email address"] }`; nested fields use dotted paths. */
export const fieldErrorsSchema = z.record(z.string(), z.array(z.string()));
export type FieldErrors = z.infer<typeof fieldErrorsSchema>;

/** The one error format of every failed call. */
export const errorResponseSchema = z.object({
  statusCode: z.number().int(),
  error: z.enum(exceptionNames),
  message: z.string(),
  errors: fieldErrorsSchema.optional(),
});
export type ErrorResponse = z.infer<typeof errorResponseSchema>;
