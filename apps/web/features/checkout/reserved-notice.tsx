"use client";

import { useRouter } from "next/navigation";
import { useTranslations } from "next-intl";
import { useEffect, useState } from "react";
import { minutesUntil } from "@/features/buyer/reservation.ts";

/** A little after the reservation ends, so the API has given the unit back and the page is refreshed. */
const REFRESH_AFTER_MS = 3000;
const TICK_MS = 30_000;

/**
 * The checkout page's "all reserved, back in N minutes" (issue 16): every remaining unit is held by a
 * checkout under way. The minutes are counted here, and the page reloads its data once the first
 * reservation ends. (The link page renders it on the server: it has no script budget left.)
 */
export function ReservedNotice({ availableAgainAt }: { availableAgainAt: string }) {
  const t = useTranslations("checkout");
  const router = useRouter();
  const [minutes, setMinutes] = useState(() => minutesUntil(availableAgainAt));

  useEffect(() => {
    const tick = setInterval(() => setMinutes(minutesUntil(availableAgainAt)), TICK_MS);
    const refresh = setTimeout(
      () => router.refresh(),
      Math.max(0, Date.parse(availableAgainAt) - Date.now()) + REFRESH_AFTER_MS,
    );
    return () => {
      clearInterval(tick);
      clearTimeout(refresh);
    };
  }, [availableAgainAt, router]);

  // The server rendered it a moment earlier: its minute count may differ.
  return (
    <p className="notice" role="status" data-testid="reserved-out">
      <span suppressHydrationWarning>{t("reservedOut", { minutes })}</span>
    </p>
  );
}
