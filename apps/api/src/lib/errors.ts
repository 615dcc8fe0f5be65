import { type ExceptionName, exceptionStatus, type FieldErrors } from "@salelink/contracts";

/** The one error type services throw; the error handler turns it into the contract's format. */
export class AppError extends Error {
  readonly statusCode: number;
  constructor(
    readonly exception: ExceptionName,
    message: string,
    readonly errors?: FieldErrors,
    readonly headers?: Record<string, string>,
    /** A status other than the exception's usual one, where the spec's client expects it. */
    statusOverride?: number,
    /** Values of `{name}` placeholders in the message and field messages (filled after translation). */
    readonly params?: Record<string, string | number>,
  ) {
    super(message);
    this.statusCode = statusOverride ?? exceptionStatus[exception];
  }
}

export const notFound = (what = "Resource") => new AppError("NotFoundException", `${what} not found.`);
export const unauthorized = () => new AppError("UnauthorizedException", "You need to sign in.");
export const forbidden = () => new AppError("ForbiddenException", "You are not allowed to do this.");
export const validation = (
  errors: FieldErrors,
  message = "Some fields are invalid.",
  params?: Record<string, string | number>,
) => new AppError("ValidationException", message, errors, undefined, undefined, params);
