import { NarrowFormPage, narrowFormMetadata, type PageProps } from "@/components/ui/narrow-form-page.tsx";
import { ResendVerification } from "@/features/auth/resend-verification.tsx";
import { ChoosePasswordOnArrival } from "@/features/auth/verify-password-dialog.tsx";

const texts = { namespace: "verify", title: "title", lead: "lead", path: "/verify-email" };
export const generateMetadata = (props: PageProps) => narrowFormMetadata(props, texts);

export default function Page(props: PageProps) {
  return (
    <NarrowFormPage {...props} texts={texts}>
      <ChoosePasswordOnArrival />
      <ResendVerification />
    </NarrowFormPage>
  );
}
