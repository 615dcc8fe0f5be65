import { NarrowFormPage, narrowFormMetadata, type PageProps } from "@/components/ui/narrow-form-page.tsx";
import { SignUpForm } from "@/features/auth/sign-up-form.tsx";

const texts = { namespace: "signup", title: "title", lead: "lead", path: "/signup" };
export const generateMetadata = (props: PageProps) => narrowFormMetadata(props, texts);

export default function Page(props: PageProps) {
  return (
    <NarrowFormPage {...props} texts={texts}>
      <SignUpForm />
    </NarrowFormPage>
  );
}
