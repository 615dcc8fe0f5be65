export const DEFAULT_ROUTE: string;
export const DEFAULT_BUDGET_BYTES: number;
export interface FirstLoad {
  route: string;
  runtimeBytes: number;
  baselineBytes: number;
  pageBytes: number;
  deltaBytes: number;
  budgetBytes: number;
  ok: boolean;
  added: { file: string; bytes: number }[];
}
export function firstLoad(options: { dir: string; route?: string; budgetBytes?: number }): FirstLoad;
