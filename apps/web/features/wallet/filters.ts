import { type Currency, currencies } from "@salelink/contracts/business-rules";
import { type TransactionKind, transactionKinds } from "@salelink/contracts/wallet";

/** The transaction filters as the page's query carries them ("" when unset). */
export interface TransactionFilters {
  kind: TransactionKind | "";
  currency: Currency | "";
  from: string;
  to: string;
}

export const noFilters: TransactionFilters = { kind: "", currency: "", from: "", to: "" };

export const filterNames = ["kind", "currency", "from", "to"] as const;

const isDay = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value));
const oneOf = <T extends string>(list: readonly T[], value: string | null): T | "" =>
  list.find((item) => item === value) ?? "";

/** Reads the filters from a query; a value the API would refuse is dropped rather than sent. */
export function filtersFrom(params: URLSearchParams): TransactionFilters {
  const day = (name: string) => {
    const value = params.get(name) ?? "";
    return isDay(value) ? value : "";
  };
  return {
    kind: oneOf(transactionKinds, params.get("kind")),
    currency: oneOf(currencies, params.get("currency")),
    from: day("from"),
    to: day("to"),
  };
}

/** The set filters as a query string without "?" (the same for the list, the page URL and the CSV). */
export function filtersQuery(filters: TransactionFilters): string {
  const params = new URLSearchParams();
  for (const name of filterNames) if (filters[name]) params.set(name, filters[name]);
  return params.toString();
}
