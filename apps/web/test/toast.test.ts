import { describe, expect, it, vi } from "vitest";

type Toast = typeof import("../lib/toast.ts");

/** A fresh module each time: the toaster's state is module-wide. */
async function fresh(): Promise<Toast> {
  vi.resetModules();
  return import("../lib/toast.ts");
}

const fakeSonner = () => {
  const shown: string[] = [];
  const sonner = Object.assign(() => "", {
    success: (title: string) => shown.push(`success:${title}`),
    error: (title: string) => shown.push(`error:${title}`),
    warning: (title: string) => shown.push(`warning:${title}`),
    info: (title: string) => shown.push(`info:${title}`),
  });
  return { shown, sonner: sonner as unknown as Parameters<Toast["toasterMounted"]>[0] };
};

describe("toasts load sonner on demand", () => {
  it("asks for the toaster at the first toast only, and shows what was asked before it mounted", async () => {
    const { toast, toasterMounted, whenToastWanted } = await fresh();
    const wanted = vi.fn();
    whenToastWanted(wanted);
    expect(wanted).not.toHaveBeenCalled();
    toast.error("Failed to claim.");
    toast.success("Saved");
    expect(wanted).toHaveBeenCalledTimes(1);
    const { shown, sonner } = fakeSonner();
    toasterMounted(sonner);
    await Promise.resolve();
    await Promise.resolve();
    expect(shown).toEqual(["error:Failed to claim.", "success:Saved"]);
  });

  it("tells a toaster that subscribes late that a toast is already waiting", async () => {
    const { toast, whenToastWanted } = await fresh();
    toast.info("Hello");
    const wanted = vi.fn();
    whenToastWanted(wanted);
    expect(wanted).toHaveBeenCalledTimes(1);
  });
});
