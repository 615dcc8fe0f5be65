import type { z } from "zod";
import type { DbOrTx, Tx } from "../db/client.ts";
import { type EnqueueParams, enqueue } from "./queries.ts";

/** What a handler knows about the job it runs (never the raw row: the payload comes parsed). */
export interface JobContext {
  id: string;
  kind: string;
  /** This attempt's number, from 1. */
  attempts: number;
  maxAttempts: number;
  runAt: Date;
  createdAt: Date;
}

/**
 * Runs one job. Every database effect goes through `tx`, which also marks the job done: both commit
 * or neither. Never use the pool's db here: on PGlite it waits for this very transaction forever.
 */
export type JobHandler<P> = (tx: Tx, payload: P, job: JobContext) => Promise<void>;

export type EnqueueOptions = Omit<EnqueueParams, "kind" | "payload">;

/** A kind of job and its payload schema, shared by the code that enqueues it and its handler. */
export interface JobKind<S extends z.ZodType> {
  readonly kind: string;
  readonly schema: S;
  /** Checks the payload before storing it, so a bad one fails in the caller, not in a worker later. */
  enqueue(db: DbOrTx, payload: z.input<S>, options?: EnqueueOptions): Promise<string | null>;
}

export function jobKind<S extends z.ZodType>(kind: string, schema: S): JobKind<S> {
  return {
    kind,
    schema,
    async enqueue(db, payload, options = {}) {
      schema.parse(payload);
      // The input is stored, not the parsed output: a transform's result need not survive JSON.
      return enqueue(db, { ...options, kind, payload });
    },
  };
}

export type PreparedJob =
  | { ok: true; run(tx: Tx, job: JobContext): Promise<void> }
  | { ok: false; error: string };

const MAX_ISSUES = 5;

/** The handlers this process can run, one per kind, each with the schema its payload must match. */
export class JobRegistry {
  private readonly entries = new Map<string, (payload: unknown) => PreparedJob>();

  register<S extends z.ZodType>(definition: JobKind<S>, handler: JobHandler<z.output<S>>): this {
    if (this.entries.has(definition.kind))
      throw new Error(`Job kind "${definition.kind}" is already registered`);
    this.entries.set(definition.kind, (payload) => {
      const parsed = definition.schema.safeParse(payload);
      if (!parsed.success) {
        // Paths and messages only: zod's issues do not carry the input, and the payload may hold
        // personal data that must not reach the jobs table's last_error or the logs.
        const issues = parsed.error.issues
          .slice(0, MAX_ISSUES)
          .map((issue) => `${issue.path.join(".") || "(root)"}: ${issue.message}`);
        return { ok: false, error: `Invalid payload: ${issues.join("; ")}` };
      }
      return { ok: true, run: (tx, job) => handler(tx, parsed.data, job) };
    });
    return this;
  }

  has(kind: string): boolean {
    return this.entries.has(kind);
  }

  kinds(): string[] {
    return [...this.entries.keys()];
  }

  /** Validates a stored payload against its kind's schema and binds it to the handler. */
  prepare(kind: string, payload: unknown): PreparedJob {
    const entry = this.entries.get(kind);
    if (!entry) return { ok: false, error: `No handler registered for job kind "${kind}"` };
    return entry(payload);
  }
}
