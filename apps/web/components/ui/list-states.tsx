import type { ReactNode } from "react";

/**
 * A list screen's states: failed to load, loading, empty (with what to do), or the list itself.
 * `items` is null while loading.
 */
export function ListStates<T>({
  items,
  failed,
  texts,
  action,
  children,
}: {
  items: T[] | null;
  failed: boolean;
  texts: { failed: string; loading: string; empty: string; emptyHint: string };
  /** The screen's main action (create…), shown in the empty state too. */
  action: ReactNode;
  children: (items: T[]) => ReactNode;
}) {
  if (failed) {
    return (
      <p className="field-error" role="alert">
        {texts.failed}
      </p>
    );
  }
  if (items === null) return <p aria-busy="true">{texts.loading}</p>;
  if (items.length === 0) {
    return (
      <div className="card empty-state">
        <p>
          <strong>{texts.empty}</strong>
        </p>
        <p className="muted">{texts.emptyHint}</p>
        {action}
      </div>
    );
  }
  return children(items);
}

/** "Load more" under a paged list, with its progress and a failure message. */
export function LoadMore({
  className,
  pending,
  failed,
  onClick,
  texts,
}: {
  className: string;
  pending: boolean;
  failed: boolean;
  onClick: () => void;
  texts: { more: string; loading: string; failed: string };
}) {
  return (
    <div className={className}>
      {failed && (
        <p className="field-error" role="alert">
          {texts.failed}
        </p>
      )}
      <button
        type="button"
        className="btn btn-ghost"
        disabled={pending}
        aria-busy={pending}
        onClick={onClick}
      >
        {pending ? texts.loading : texts.more}
      </button>
    </div>
  );
}

/** A read that failed: what failed, and a button to try again. */
export function LoadFailed({
  message,
  retry,
  onRetry,
}: {
  message: string;
  retry: string;
  onRetry: () => void;
}) {
  return (
    <div role="alert" className="aff-error">
      <p className="field-error">{message}</p>
      <button type="button" className="btn btn-ghost btn-sm" onClick={onRetry}>
        {retry}
      </button>
    </div>
  );
}

type FilteredTexts = {
  failed: string;
  retry: string;
  loading: string;
  empty: string;
  emptyFiltered: string;
  emptyHint: string;
};

/** A section's words for FilteredStates, by the keys every such section uses. */
export const filteredTexts = (
  t: (key: "loadFailed" | "retry" | "loading" | "empty" | "emptyFiltered" | "emptyHint") => string,
): FilteredTexts => ({
  failed: t("loadFailed"),
  retry: t("retry"),
  loading: t("loading"),
  empty: t("empty"),
  emptyFiltered: t("emptyFiltered"),
  emptyHint: t("emptyHint"),
});

/**
 * A filtered, paged table's states: failed (with a retry), loading, empty (told apart from "nothing
 * matches the filter"), or the table itself.
 */
export function FilteredStates({
  failed,
  loading,
  empty,
  filtered,
  texts,
  onRetry,
  children,
}: {
  failed: boolean;
  loading: boolean;
  empty: boolean;
  filtered: boolean;
  texts: FilteredTexts;
  onRetry: () => void;
  children: ReactNode;
}) {
  if (failed) return <LoadFailed message={texts.failed} retry={texts.retry} onRetry={onRetry} />;
  if (loading) {
    return (
      <p aria-busy="true" className="muted">
        {texts.loading}
      </p>
    );
  }
  if (empty) {
    return (
      <div className="card empty-state aff-empty">
        <p>
          <strong>{filtered ? texts.emptyFiltered : texts.empty}</strong>
        </p>
        {!filtered && <p className="muted">{texts.emptyHint}</p>}
      </div>
    );
  }
  return children;
}

/**
 * A detail screen (one sale, one customer, one membership) before it has its data: the link back,
 * then not found, failed with a retry, or loading.
 */
export function DetailStates({
  className,
  back,
  failed,
  notFound,
  texts,
  onRetry,
}: {
  className: string;
  back: ReactNode;
  failed: boolean;
  notFound: boolean;
  texts: { notFound: string; failed: string; retry: string; loading: string };
  onRetry: () => void;
}) {
  if (!failed) {
    return (
      <p aria-busy="true" className="muted loading">
        {texts.loading}
      </p>
    );
  }
  return (
    <section className={className}>
      {back}
      {notFound ? (
        <div role="alert" className="aff-error">
          <p className="field-error">{texts.notFound}</p>
        </div>
      ) : (
        <LoadFailed message={texts.failed} retry={texts.retry} onRetry={onRetry} />
      )}
    </section>
  );
}

/** An offset-paged table's footer: which rows are shown of how many, previous and next. */
export function OffsetPager({
  label,
  offset,
  limit,
  shown,
  total,
  nextOffset,
  onOffset,
  texts,
}: {
  label: string;
  offset: number;
  limit: number;
  shown: number;
  total: number;
  nextOffset: number | null;
  onOffset: (offset: number) => void;
  texts: {
    showing: (range: { from: number; to: number; total: number }) => string;
    previous: string;
    next: string;
  };
}) {
  return (
    <nav className="partners-paging" aria-label={label}>
      <span className="muted">
        {texts.showing({ from: shown === 0 ? 0 : offset + 1, to: offset + shown, total })}
      </span>
      {(offset > 0 || nextOffset !== null) && (
        <div className="actions">
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            disabled={offset === 0}
            onClick={() => onOffset(Math.max(0, offset - limit))}
          >
            {texts.previous}
          </button>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            disabled={nextOffset === null}
            onClick={() => nextOffset !== null && onOffset(nextOffset)}
          >
            {texts.next}
          </button>
        </div>
      )}
    </nav>
  );
}
