/*
 * The arithmetic of the money model's sales, written from the rules (decisions 012, 037, 039), never
 * from the API's code: how a price splits, and what a share of a sale takes of each of its parts.
 */

/** `amount × bps / 10000`, rounded half up in integers (decision 012's worked examples). */
export const roundedShare = (amount: number, bps: number): number =>
  Math.floor((amount * bps + 5000) / 10000);

/** The VAT in a price at `vatBps` (issue 22): the price less the price at 100/(100 + rate), half up. */
export const vatIn = (gross: number, vatBps: number): number =>
  gross - Math.floor((2 * gross * 10000 + (10000 + vatBps)) / (2 * (10000 + vatBps)));

/**
 * The parts of a sale as it stands: the creator's net, the VAT, the platform's own share of the fee
 * (the fee less the referrer's commission), the referrer's commission and the partner's.
 */
export interface SaleParts {
  net: number;
  vat: number;
  platform: number;
  commission: number;
  partner: number;
}

export const noParts = (): SaleParts => ({ net: 0, vat: 0, platform: 0, commission: 0, partner: 0 });

export const sumOf = (p: SaleParts): number => p.net + p.vat + p.platform + p.commission + p.partner;

/**
 * What taking back `amount` of what is left of a sale (`left`, the sum of `parts`) takes of each part
 * (decision 037): each part its share, rounded to the largest remainders (ties to the part posted
 * last: the ledger rounds the reversal's entries down from the first posted), so that the parts add
 * up to the amount. All that is left takes every part whole.
 */
export function shareOfParts(parts: SaleParts, released: boolean, amount: number, left: number): SaleParts {
  if (amount >= left) return { ...parts };
  // The order of the sale's entries as posted: held, or after the hold's release.
  const order: (keyof SaleParts)[] = released
    ? ["vat", "platform", "net", "commission", "partner"]
    : ["net", "vat", "platform", "commission", "partner"];
  const taken = noParts();
  const shares = order
    .filter((name) => parts[name] !== 0)
    .map((name, index) => ({
      name,
      index,
      floor: Math.floor((parts[name] * amount) / left),
      rest: (parts[name] * amount) % left,
    }));
  let units = amount - shares.reduce((sum, p) => sum + p.floor, 0);
  for (const p of shares) taken[p.name] = p.floor;
  for (const p of [...shares].sort((a, b) => b.rest - a.rest || b.index - a.index)) {
    if (units <= 0 || p.rest === 0) break;
    taken[p.name] += 1;
    units -= 1;
  }
  return taken;
}
