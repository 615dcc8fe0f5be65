import type { Caller, Party, World } from "./access-fixtures.ts";

/*
 * The access matrix's vocabulary: a row per route, the request to send for each caller, and the
 * status each of the five callers must get. The rows themselves are in access-rows-*.ts.
 */

export type Expect = Record<Caller, number>;

/** What a row knows when it builds one cell's request. */
export interface Cell {
  as: Caller;
  /** The account calling (a fresh one of the caller's kind for `fresh` rows); null when anonymous. */
  who: Party | null;
  world: World;
  /** What the row's `prepare` made for it (ids, tokens). */
  prepared: Record<string, string>;
}

export interface Req {
  url: string;
  payload?: object | string | Buffer;
  headers?: Record<string, string>;
}

export interface Row {
  expect: Expect;
  /** Each signed-in caller is a fresh account of its kind: the call ends or changes its own sessions. */
  fresh?: boolean;
  /**
   * Resources made for this row alone, once, before its cells run: what a successful call destroys
   * or changes (a deleted link, a suspended account). `ownerCookie` replaces the creator's session.
   */
  prepare?: (world: World) => Promise<Record<string, string>>;
  request: (cell: Cell) => Req | Promise<Req>;
}

/** A route of the caller's own resource: strangers get the 404 of a row that does not exist. */
export const owner = (ok: number, stranger = 404): Expect => ({
  anonymous: 401,
  buyer: stranger,
  creator: ok,
  other: stranger,
  admin: stranger,
});

/** A route about the signed-in account itself (its list, its wallet): every account gets its own. */
export const signedIn = (ok: number): Expect => ({
  anonymous: 401,
  buyer: ok,
  creator: ok,
  other: ok,
  admin: ok,
});

export const adminOnly = (ok: number): Expect => ({
  anonymous: 401,
  buyer: 403,
  creator: 403,
  other: 403,
  admin: ok,
});

/** Public: the same answer whoever asks (a capability in the URL, a webhook, a page). */
export const open = (status: number): Expect => ({
  anonymous: status,
  buyer: status,
  creator: status,
  other: status,
  admin: status,
});
