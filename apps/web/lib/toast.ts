import type { toast as sonnerToast } from "sonner";

/*
 * The product's toasts (spec sections 8 and 9), without sonner in any page's load: the toaster and
 * sonner load when the first toast is asked for (most visits of a buyer page never toast, and
 * evaluating sonner was a long task on a phone), and a toast asked for before the toaster is mounted
 * is shown as soon as it is (none is lost). Same calls as sonner's: toast.success(title, options).
 */

type Sonner = typeof sonnerToast;
type Kind = "success" | "error" | "warning" | "info";
type Options = Parameters<Sonner["success"]>[1];

let markReady: (sonner: Sonner) => void = () => undefined;
const ready = new Promise<Sonner>((resolve) => {
  markReady = resolve;
});

let wanted = false;
let onWanted: ((wanted: true) => void) | undefined;

/** The one toaster calls this to be told of the first toast (at once if one was already asked for). */
export function whenToastWanted(listener: (wanted: true) => void): void {
  if (wanted) listener(true);
  else onWanted = listener;
}

function want(): void {
  if (!wanted) onWanted?.(true);
  wanted = true;
}

/** Called by the mounted toaster: from then on, toasts show at once. */
export function toasterMounted(sonner: Sonner): void {
  markReady(sonner);
}

const show =
  (kind: Kind) =>
  (title: string, options?: Options): void => {
    want();
    void ready.then((sonner) => sonner[kind](title, options));
  };

export const toast = {
  success: show("success"),
  error: show("error"),
  warning: show("warning"),
  info: show("info"),
};
