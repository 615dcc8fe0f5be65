/** An amount in minor units of `currency`, in the page's language ("€20.00", "20,00 €"). */
export function formatPrice(minor: number, currency: string, locale: string): string {
  const format = new Intl.NumberFormat(locale, { style: "currency", currency });
  // The currency's own number of decimals (2 for EUR, 0 for JPY), as the API counts minor units.
  const digits = format.resolvedOptions().maximumFractionDigits ?? 2;
  return format.format(minor / 10 ** digits);
}

/** The same amount as a plain decimal ("20.00"), for machine-read tags such as product:price:amount. */
export function decimalAmount(minor: number, currency: string): string {
  const digits =
    new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
  return (minor / 10 ** digits).toFixed(digits);
}
