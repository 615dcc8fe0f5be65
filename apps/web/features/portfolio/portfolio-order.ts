import type { Link } from "@salelink/contracts";

/** The list with the item at `index` swapped with its neighbour; unchanged at either end. */
export function move<T>(list: readonly T[], index: number, direction: -1 | 1): T[] {
  const target = index + direction;
  const out = [...list];
  const a = out[index];
  const b = out[target];
  if (a === undefined || b === undefined) return out;
  out[index] = b;
  out[target] = a;
  return out;
}

/** Adds an id at the end, or takes it out: ticking a link puts it last on the page. */
export function toggle(list: readonly string[], id: string, shown: boolean): string[] {
  const rest = list.filter((x) => x !== id);
  return shown ? [...rest, id] : rest;
}

/**
 * A profile's links split for the editor: the saved portfolio's active links in their order, the
 * active links it leaves out, and those that cannot be shown (paused or removed), which a save drops.
 */
export function splitLinks(profileLinks: readonly Link[], savedIds: readonly string[]) {
  const byId = new Map(profileLinks.map((l) => [l.id, l]));
  const shown = savedIds.filter((id) => byId.get(id)?.status === "active");
  const active = profileLinks.filter((l) => l.status === "active");
  const unavailable = profileLinks.filter((l) => l.status !== "active");
  return { shown, active, unavailable };
}

export const sameOrder = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);
