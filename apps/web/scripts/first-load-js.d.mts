export const DEFAULT_ROUTE: string;
export const DEFAULT_BUDGET_BYTES: number;
export interface FirstLoad {
  route: string;
  runtimeBytes: number;
  /** The bare framework's page: runtime and Next.js's own boundaries. */
  baselineBytes: number;
  /** Ours, from the layouts (shell, providers, guards). */
  layoutBytes: number;
  /** Ours, from the page itself. */
  pageOwnBytes: number;
  pageBytes: number;
  /** Everything of ours: what the budget applies to. */
  deltaBytes: number;
  budgetBytes: number;
  ok: boolean;
  added: { file: string; bytes: number }[];
}
export function firstLoad(options: { dir: string; route?: string; budgetBytes?: number }): FirstLoad;
