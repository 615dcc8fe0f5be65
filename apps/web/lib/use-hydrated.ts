import { useSyncExternalStore } from "react";

const subscribe = () => () => undefined;

/**
 * False while this component hydrates, true afterwards. Components whose markup depends on state
 * only the browser knows (the signed-in user) render the server's markup until then: a context that
 * changes before a lazily hydrated boundary catches up would otherwise make React 19 report a
 * hydration mismatch and throw the server HTML away.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
