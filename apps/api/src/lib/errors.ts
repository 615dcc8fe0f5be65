import { type ExceptionName, exceptionStatus, type FieldErrors } from "@salelink/contracts";

export interface AppErrorOptions {
  /** Messages per field, each translated like the message. */
  errors?: FieldErrors;
  headers?: Record<string, string>;
  /** A status other than the exception's usual one, where the spec's client expects it. */
  status?: number;
  /** Values of `{name}` placeholders in the message and field messages (filled after translation). */
  params?: Record<string, string | number>;
}

/** The one error type services throw; the error handler turns it into the contract's format. */
export class AppError extends Error {
  readonly statusCode: number;
  readonly errors?: FieldErrors;
  readonly headers?: Record<string, string>;
  readonly params?: Record<string, string | number>;
  constructor(
    readonly exception: ExceptionName,
    message: string,
    options: AppErrorOptions = {},
  ) {
    super(message);
    this.errors = options.errors;
    this.headers = options.headers;
    this.params = options.params;
    this.statusCode = options.status ?? exceptionStatus[exception];
  }
}

export const notFound = (what = "Resource") => new AppError("NotFoundException", `${what} not found.`);
export const unauthorized = () => new AppError("UnauthorizedException", "You need to sign in.");
export const forbidden = () => new AppError("ForbiddenException", "You are not allowed to do this.");
export const validation = (
  errors: FieldErrors,
  message = "Some fields are invalid.",
  params?: Record<string, string | number>,
) => new AppError("ValidationException", message, { errors, params });
