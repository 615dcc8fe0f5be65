"use client";

import type { ReactNode } from "react";
import { ListStates, LoadMore } from "@/components/ui/list-states.tsx";
import type { usePagedList } from "@/components/ui/use-paged-list.ts";

/** The keys every admin list screen has in its own namespace for its states and "load more". */
type ListTextKey =
  | "listLabel"
  | "loadFailed"
  | "loading"
  | "empty"
  | "emptyHint"
  | "loadMore"
  | "loadingMore"
  | "loadMoreFailed";

/**
 * An admin screen's paged list: its states (failed, loading, empty), the items, and "load more".
 * `t` is the screen's translator; `empty` replaces its "empty" text when the filter asks for another.
 */
export function AdminPagedList<T extends { id: string | number }>({
  list,
  t,
  empty,
  ordered = false,
  className,
  children,
}: {
  list: Pick<
    ReturnType<typeof usePagedList<string, T, string | number, unknown>>,
    "items" | "failed" | "nextCursor" | "loadingMore" | "moreFailed" | "loadMore"
  >;
  t: (key: ListTextKey) => string;
  empty?: string;
  /** An `<ol>`, for a list whose order is its meaning (a log). */
  ordered?: boolean;
  className: string;
  children: (item: T) => ReactNode;
}) {
  const List = ordered ? "ol" : "ul";
  return (
    <ListStates
      items={list.items}
      failed={list.failed}
      texts={{
        failed: t("loadFailed"),
        loading: t("loading"),
        empty: empty ?? t("empty"),
        emptyHint: t("emptyHint"),
      }}
      action={null}
    >
      {(items) => (
        <>
          <List className={className} aria-label={t("listLabel")}>
            {items.map(children)}
          </List>
          {list.nextCursor !== null && (
            <LoadMore
              className="admin-more"
              pending={list.loadingMore}
              failed={list.moreFailed}
              onClick={list.loadMore}
              texts={{ more: t("loadMore"), loading: t("loadingMore"), failed: t("loadMoreFailed") }}
            />
          )}
        </>
      )}
    </ListStates>
  );
}

/** A row of toggle buttons choosing what a list shows; `current` null: not read from the address yet. */
export function FilterBar<F extends string>({
  legend,
  filters,
  current,
  label,
  onChoose,
}: {
  legend: string;
  filters: readonly F[];
  current: F | null;
  label: (filter: F) => string;
  onChoose: (filter: F) => void;
}) {
  return (
    <fieldset className="admin-filters">
      <legend className="sr-only">{legend}</legend>
      {filters.map((f) => (
        <button
          key={f}
          type="button"
          className="admin-filter"
          aria-pressed={current === f}
          onClick={() => onChoose(f)}
        >
          {label(f)}
        </button>
      ))}
    </fieldset>
  );
}

/** A search form of one field; `value` null: not read from the address yet (the field fills once it is). */
export function AdminSearch({
  id,
  label,
  submit,
  value,
  onSearch,
}: {
  id: string;
  label: string;
  submit: string;
  value: string | null;
  onSearch: (q: string) => void;
}) {
  return (
    <search>
      <form
        className="admin-search"
        onSubmit={(event) => {
          event.preventDefault();
          onSearch(String(new FormData(event.currentTarget).get("q") ?? "").trim());
        }}
      >
        <label htmlFor={id}>{label}</label>
        <div className="admin-search-row">
          <input id={id} name="q" type="search" defaultValue={value ?? ""} key={value === null ? 0 : 1} />
          <button type="submit" className="btn btn-primary">
            {submit}
          </button>
        </div>
      </form>
    </search>
  );
}
