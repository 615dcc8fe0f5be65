"use client";

import { type UpdateList, updateListSchema } from "@salelink/contracts/updates";
import { useQuery } from "@tanstack/react-query";
import { useTranslations } from "next-intl";
import { useQueryState } from "@/components/ui/use-api-query.ts";
import { api } from "@/lib/api.ts";
import { queryKeys } from "@/lib/query-keys.ts";
import { ComposeUpdate } from "./compose-update.tsx";
import { UpdatesList } from "./updates-list.tsx";

/** While an update is being sent, its counts are read again this often. */
const SENDING_REFRESH_MS = 2_000;

/**
 * Updates to buyers (issue 21): write one to the buyers of a link or of all links, then follow its
 * sending (read again while any is under way) and its figures.
 */
export function UpdatesPage() {
  const t = useTranslations("updates");
  const { data, failed, reload } = useQueryState<UpdateList>(
    useQuery({
      queryKey: queryKeys.updates.list,
      queryFn: ({ signal }) => api("/updates", { schema: updateListSchema, signal }),
      refetchInterval: (query) =>
        query.state.data?.items.some((u) => u.status === "sending") ? SENDING_REFRESH_MS : false,
    }),
  );

  return (
    <section className="aff-page updates-page" aria-labelledby="updates-title">
      <h1 id="updates-title">{t("title")}</h1>
      <p className="muted">{t("intro")}</p>
      <ComposeUpdate remainingToday={data?.remainingToday ?? null} />
      <UpdatesList list={data} failed={failed} reload={reload} />
    </section>
  );
}
