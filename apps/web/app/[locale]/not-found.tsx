import { getTranslations } from "next-intl/server";
import { ErrorView } from "@/components/ui/error-view.tsx";

export default async function NotFound() {
  const t = await getTranslations("errors");
  return <ErrorView status={404} message={t("notFound")} back={t("goBack")} />;
}
