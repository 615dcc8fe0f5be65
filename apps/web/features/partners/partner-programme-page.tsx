"use client";

import type { Currency } from "@salelink/contracts/business-rules";
import { type PartnerProgramme, partnerProgrammeSchema } from "@salelink/contracts/partners";
import { useQueryClient } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { LoadFailed } from "@/components/ui/list-states.tsx";
import { useApiQuery } from "@/components/ui/use-api-query.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { Invitations } from "./invitations.tsx";
import { PartnersTable } from "./partners-table.tsx";
import { ProgrammeForm } from "./programme-form.tsx";

/**
 * /account/partners: the creator's own partner programme (issue 20): its settings, then the
 * partners and applications with their figures, then invitations by e-mail.
 */
export function PartnerProgrammePage({ defaultCurrency }: { defaultCurrency: Currency }) {
  const t = useTranslations("partners");
  const queryClient = useQueryClient();
  const {
    data: programme,
    failed,
    reload,
  } = useApiQuery(queryKeys.partners.programme, "/partner-programme", partnerProgrammeSchema);

  return (
    <section className="affiliates partners">
      <h1>{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      {failed ? (
        <LoadFailed message={t("loadFailed")} retry={t("retry")} onRetry={reload} />
      ) : programme === null ? (
        <p aria-busy="true" className="muted loading">
          {t("loading")}
        </p>
      ) : (
        <>
          <ProgrammeForm
            // Saved: the form starts again from what the API kept (a rate it rounded, trimmed texts).
            key={programme.updatedAt ?? "never-saved"}
            programme={programme}
            onSaved={(saved) =>
              queryClient.setQueryData<PartnerProgramme>(queryKeys.partners.programme, saved)
            }
          />
          {!programme.enabled && programme.updatedAt !== null && (
            <p className="notice partners-off">{t("offNotice")}</p>
          )}
          <PartnersTable defaultCurrency={defaultCurrency} />
          <Invitations />
        </>
      )}
    </section>
  );
}
