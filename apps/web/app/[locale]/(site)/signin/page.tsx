import { NarrowFormPage, narrowFormMetadata, type PageProps } from "@/components/ui/narrow-form-page.tsx";
import { SignInForm } from "@/features/auth/sign-in-form.tsx";

const texts = { namespace: "auth", title: "signInTitle", lead: "signInLead", path: "/signin" };
export const generateMetadata = (props: PageProps) => narrowFormMetadata(props, texts);

export default function Page(props: PageProps) {
  return (
    <NarrowFormPage {...props} texts={texts}>
      <SignInForm />
    </NarrowFormPage>
  );
}
