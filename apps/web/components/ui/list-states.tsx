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
