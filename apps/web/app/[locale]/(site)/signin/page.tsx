import { narrowFormPage } from "@/components/ui/narrow-form-page.tsx";
import { SignInForm } from "@/features/auth/sign-in-form.tsx";

const page = narrowFormPage({
  namespace: "auth",
  title: "signInTitle",
  lead: "signInLead",
  path: "/signin",
  Form: SignInForm,
});
export const generateMetadata = page.generateMetadata;
export default page.Page;
