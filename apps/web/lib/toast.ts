import type { toast as sonnerToast } from "sonner";

/*
 * The product's toasts (spec sections 8 and 9), without sonner in every page's first load: the
 * toaster and sonner load just after the page, and a toast asked for before then is shown as soon
 * as the toaster is mounted (none is lost). Same calls as sonner's: toast.success(title, options).
 */

type Sonner = typeof sonnerToast;
type Kind = "success" | "error" | "warning" | "info";
type Options = Parameters<Sonner["success"]>[1];

let markReady: (sonner: Sonner) => void = () => undefined;
const ready = new Promise<Sonner>((resolve) => {
  markReady = resolve;
});

/** Called by the mounted toaster: from then on, toasts show at once. */
export function toasterMounted(sonner: Sonner): void {
  markReady(sonner);
}

const show =
  (kind: Kind) =>
  (title: string, options?: Options): void => {
    void ready.then((sonner) => sonner[kind](title, options));
  };

export const toast = {
  success: show("success"),
  error: show("error"),
  warning: show("warning"),
  info: show("info"),
};
