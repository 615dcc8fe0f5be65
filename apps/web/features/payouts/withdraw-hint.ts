/** The translator of the `payouts` namespace, as far as the hint needs it. */
type Translate = (key: "amountHint" | "amountHintBelow", values: Record<string, string>) => string;

/**
 * The hint under the withdraw amount. "From €10.00 up to €0.00" reads as a bug: below the minimum
 * the hint says how much more is needed instead of offering a range that does not exist.
 */
export function withdrawHint(
  t: Translate,
  minimum: number,
  available: number,
  money: (minor: number) => string,
): string {
  if (available < minimum) {
    return t("amountHintBelow", { minimum: money(minimum), missing: money(minimum - available) });
  }
  return t("amountHint", { minimum: money(minimum), available: money(available) });
}
