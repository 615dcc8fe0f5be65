"use client";

import Link from "next/link";
import { useState } from "react";
import { useAuth } from "@/features/auth/auth-provider.tsx";
import { toast } from "@/lib/toast.ts";

export interface BecomePartnerTexts {
  join: string;
  apply: string;
  joining: string;
  signIn: string;
  joined: string;
  applied: string;
  failed: string;
  own: string;
  open: string;
}

/**
 * The creator page's only island for the programme: join (signed in) or sign in first and come
 * back. Its texts come from the server page and the join itself loads on the click, so the page's
 * first load gains neither a message namespace nor the call and its schema (decision 009).
 */
export function BecomePartner({
  creatorId,
  joinMode,
  returnPath,
  texts,
}: {
  creatorId: string;
  joinMode: "open" | "approval";
  returnPath: string;
  texts: BecomePartnerTexts;
}) {
  const { user, authChecked } = useAuth();
  const [pending, setPending] = useState(false);
  const [done, setDone] = useState<string | null>(null);

  if (done) {
    return (
      <p role="status">
        {done} <Link href="/account/programmes">{texts.open}</Link>
      </p>
    );
  }
  if (authChecked && !user) {
    return (
      <Link className="btn btn-primary" href={`/signin?next=${encodeURIComponent(returnPath)}`}>
        {texts.signIn}
      </Link>
    );
  }
  if (user?.id === creatorId) return <p className="muted">{texts.own}</p>;
  return (
    <button
      type="button"
      className="btn btn-primary"
      // Until the session is known, the button cannot tell joining from signing in.
      disabled={!authChecked || pending}
      aria-busy={pending}
      onClick={() => {
        setPending(true);
        import("./join-programme.ts")
          .then((m) => m.joinProgramme(creatorId, texts))
          // The chunk itself failed to load (offline): said as any failure is.
          .then(setDone, () => toast.error(texts.failed))
          .finally(() => setPending(false));
      }}
    >
      {pending ? texts.joining : joinMode === "open" ? texts.join : texts.apply}
    </button>
  );
}
