/*
 * Recognising PostgreSQL's refusals. node-postgres and PGlite both throw an error carrying the
 * SQLSTATE `code` and, for constraint errors, the `constraint` name; drizzle wraps it in a
 * DrizzleQueryError whose `cause` is the driver's error. So every check walks down the causes.
 */

/** The SQLSTATE codes the API reacts to (PostgreSQL manual, appendix A). */
export const pgCodes = {
  uniqueViolation: "23505",
  checkViolation: "23514",
  foreignKeyViolation: "23503",
  serializationFailure: "40001",
  deadlockDetected: "40P01",
  untranslatableCharacter: "22P05",
  characterNotInRepertoire: "22021",
} as const;

/** Drizzle wraps once; a few more levels cover our own wrapping, and a cycle cannot loop forever. */
const maxDepth = 5;

/** `err` and the errors it wraps, outermost first. */
export function* errorChain(err: unknown): Generator<object> {
  let current: unknown = err;
  for (let depth = 0; depth < maxDepth && typeof current === "object" && current !== null; depth++) {
    yield current;
    current = (current as { cause?: unknown }).cause;
  }
}

/** The first error in the chain with one of `codes`, as the driver reported it. */
function findPgError(
  err: unknown,
  codes: readonly string[],
): { code: string; constraint?: string } | undefined {
  for (const e of errorChain(err)) {
    const { code, constraint } = e as { code?: unknown; constraint?: unknown };
    if (typeof code === "string" && codes.includes(code)) {
      return { code, constraint: typeof constraint === "string" ? constraint : undefined };
    }
  }
  return undefined;
}

/** The SQLSTATE of the first error in the chain that has a string `code`. */
export function pgErrorCode(err: unknown): string | undefined {
  for (const e of errorChain(err)) {
    const { code } = e as { code?: unknown };
    if (typeof code === "string") return code;
  }
  return undefined;
}

/**
 * A constraint refused the row. With a constraint name, only that constraint counts; a driver that
 * left the name out (`lenient`) counts as a match, for callers whose statement can break only one.
 */
function isViolation(err: unknown, code: string, constraint?: string, lenient = false): boolean {
  const found = findPgError(err, [code]);
  if (!found) return false;
  if (constraint === undefined) return true;
  return found.constraint === constraint || (lenient && found.constraint === undefined);
}

export interface ConstraintMatch {
  /** Also true when the driver did not name the constraint (the statement can break only this one). */
  orUnnamed?: boolean;
}

/** unique_violation (23505), on `constraint` when given (an index name for a unique index). */
export const isUniqueViolation = (
  err: unknown,
  constraint?: string,
  options: ConstraintMatch = {},
): boolean => isViolation(err, pgCodes.uniqueViolation, constraint, options.orUnnamed);

/** check_violation (23514), on `constraint` when given. */
export const isCheckViolation = (err: unknown, constraint?: string, options: ConstraintMatch = {}): boolean =>
  isViolation(err, pgCodes.checkViolation, constraint, options.orUnnamed);

/** foreign_key_violation (23503), on `constraint` when given. */
export const isForeignKeyViolation = (err: unknown, constraint?: string): boolean =>
  isViolation(err, pgCodes.foreignKeyViolation, constraint);

/** A transaction PostgreSQL gave up on and that may succeed if run again (40001, 40P01). */
export const isRetryableTransaction = (err: unknown): boolean =>
  findPgError(err, [pgCodes.serializationFailure, pgCodes.deadlockDetected]) !== undefined;

/**
 * The database refusing the request's own text: a NUL byte (PostgreSQL text cannot hold one) or a
 * character the encoding lacks. The error handler answers 400 for it, not 500.
 */
export const isUnstorableText = (err: unknown): boolean =>
  findPgError(err, [pgCodes.untranslatableCharacter, pgCodes.characterNotInRepertoire]) !== undefined;
