const units = ["byte", "kilobyte", "megabyte", "gigabyte"] as const;

/**
 * A file size for people, in the page's language, the same on every screen ("588 bytes",
 * "1 octet", "10 MB", "1,5 Mo"). Binary steps, as the upload limits and quotas are set (10 MiB shows
 * as "10 MB", not "10.5 MB"). Bytes are written out in full: the short form of CLDR's byte unit has
 * no plural in English ("588 byte"), while the long one follows the language's plural rules.
 */
export function formatBytes(bytes: number, locale: string): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return new Intl.NumberFormat(locale, {
    style: "unit",
    unit: units[unit],
    unitDisplay: unit === 0 ? "long" : "short",
    maximumFractionDigits: unit === 0 ? 0 : 1,
  }).format(value);
}
