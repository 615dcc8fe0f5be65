import type { Config } from "../../config.ts";
import type { Db } from "../../db/client.ts";
import type { PaymentEvent, PaymentProvider } from "../../providers/payments/types.ts";
import { scheduleFold } from "../wallet/jobs.ts";
import { applyPaymentBatch } from "./apply-batch.ts";
import { type ApplyResult, applyPaymentEvent } from "./events.ts";

/*
 * Who waits for which batch (decision 030): the deliveries that arrive while earlier batches are in
 * flight make the next batch (apply-batch.ts); each is answered when its batch has committed.
 */

type ProviderKind = PaymentProvider["kind"];

/** Events per transaction: beyond ~100 a batch holds its rows longer than it saves. */
const MAX_BATCH = 100;
/** Batches in flight per process (of a pool of 10 connections, the rest stay for other requests). */
const MAX_CONCURRENT = 3;

interface Waiting {
  event: PaymentEvent;
  resolve: (result: ApplyResult) => void;
  reject: (error: unknown) => void;
}

/**
 * Groups the deliveries that arrive while earlier batches are in flight. No timer: a lone delivery
 * starts at once (a batch of one), so a quiet shop sees no added latency; under load the queue
 * fills while the running batches commit, and the next batch takes it.
 */
export class PaymentBatcher {
  private readonly queue: Waiting[] = [];
  private running = 0;

  constructor(
    private readonly db: Db,
    private readonly config: Config,
    private readonly provider: ProviderKind,
  ) {}

  serves(config: Config, provider: ProviderKind): boolean {
    return this.config === config && this.provider === provider;
  }

  apply(event: PaymentEvent): Promise<ApplyResult> {
    // Failures and refunds are rare and have rules of their own: one by one, as always.
    if (event.type !== "payment.succeeded") return this.one(event);
    return new Promise((resolve, reject) => {
      this.queue.push({ event, resolve, reject });
      this.drain();
    });
  }

  private drain(): void {
    while (this.running < MAX_CONCURRENT && this.queue.length > 0) {
      const batch = this.queue.splice(0, MAX_BATCH);
      this.running += 1;
      void this.run(batch).finally(() => {
        this.running -= 1;
        this.drain();
      });
    }
  }

  private one(event: PaymentEvent): Promise<ApplyResult> {
    return this.db.transaction((tx) => applyPaymentEvent(tx, this.config, this.provider, event));
  }

  private async run(batch: Waiting[]): Promise<void> {
    let results: (ApplyResult | undefined)[];
    try {
      ({ results } = await this.db.transaction((tx) =>
        applyPaymentBatch(
          tx,
          this.config,
          this.provider,
          batch.map((w) => w.event),
        ),
      ));
    } catch {
      // Whatever failed (an event not in the common case, a deadlock, a poisoned row), nothing of
      // the batch committed: each event is applied on its own, and only a failing one fails.
      results = batch.map(() => undefined);
    }
    await Promise.all(
      batch.map(async (waiting, index) => {
        const result = results[index];
        if (result !== undefined) return waiting.resolve(result);
        await this.one(waiting.event).then(waiting.resolve, waiting.reject);
      }),
    );
    // After the commit, never inside it: a fold lost to a crash only waits for the next sale.
    await scheduleFold(this.db).catch(() => undefined);
  }
}

const batchers = new WeakMap<Db, PaymentBatcher[]>();

/** The batcher of this app's database, configuration and provider (one per process, shared). */
export function paymentBatcher(db: Db, config: Config, provider: ProviderKind): PaymentBatcher {
  const list = batchers.get(db) ?? [];
  batchers.set(db, list);
  const found = list.find((b) => b.serves(config, provider));
  if (found) return found;
  const made = new PaymentBatcher(db, config, provider);
  list.push(made);
  return made;
}
