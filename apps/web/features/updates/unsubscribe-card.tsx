import { getTranslations } from "next-intl/server";
import { describeUnsubscribe } from "./unsubscribe-api.ts";

/**
 * Which creator, and one button that POSTs (a plain form: no JavaScript needed); once left, the
 * confirmation. Rendered on the server only.
 */
export async function UnsubscribeCard({ token, failed }: { token: string; failed: boolean }) {
  const t = await getTranslations("unsubscribe");
  const state = await describeUnsubscribe(token);
  if (!state) {
    return (
      <p className="card notice" role="alert">
        {t("invalid")}
      </p>
    );
  }
  const { creator } = state;
  if (state.unsubscribed) {
    return (
      <p className="card notice" role="status">
        {creator ? t("done", { creator }) : t("doneUnnamed")}
      </p>
    );
  }
  return (
    <form className="card" method="post" action={`/unsubscribe/${token}/confirm`}>
      <p>
        <strong>{creator ? t("question", { creator }) : t("questionUnnamed")}</strong>
      </p>
      <p className="muted">{t("explain")}</p>
      {failed && (
        <p className="field-error" role="alert">
          {t("failed")}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="btn btn-primary">
          {t("button")}
        </button>
      </div>
    </form>
  );
}
