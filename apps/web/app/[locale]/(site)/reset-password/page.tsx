import { NarrowFormPage, narrowFormMetadata, type PageProps } from "@/components/ui/narrow-form-page.tsx";
import { ResetPasswordForm } from "@/features/auth/reset-password-form.tsx";

const texts = { namespace: "password", title: "resetTitle", lead: "resetLead", path: "/reset-password" };
export const generateMetadata = (props: PageProps) => narrowFormMetadata(props, texts);

export default function Page(props: PageProps) {
  return (
    <NarrowFormPage {...props} texts={texts}>
      <ResetPasswordForm />
    </NarrowFormPage>
  );
}
