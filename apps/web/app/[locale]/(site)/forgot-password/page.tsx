import { NarrowFormPage, narrowFormMetadata, type PageProps } from "@/components/ui/narrow-form-page.tsx";
import { ForgotPasswordForm } from "@/features/auth/forgot-password-form.tsx";

const texts = { namespace: "password", title: "forgotTitle", lead: "forgotLead", path: "/forgot-password" };
export const generateMetadata = (props: PageProps) => narrowFormMetadata(props, texts);

export default function Page(props: PageProps) {
  return (
    <NarrowFormPage {...props} texts={texts}>
      <ForgotPasswordForm />
    </NarrowFormPage>
  );
}
