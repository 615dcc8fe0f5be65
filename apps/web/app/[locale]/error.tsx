"use client";

import { useTranslations } from "next-intl";
import { useEffect } from "react";
import { ErrorView } from "@/components/ui/error-view.tsx";

export default function ErrorPage({ error }: { error: Error & { digest?: string } }) {
  const t = useTranslations("errors");
  useEffect(() => {
    console.error(error);
  }, [error]);
  return <ErrorView status={500} message={t("unexpected")} back={t("goBack")} />;
}
