import { narrowFormPage } from "@/components/ui/narrow-form-page.tsx";
import { SignUpForm } from "@/features/auth/sign-up-form.tsx";

const page = narrowFormPage({
  namespace: "signup",
  title: "title",
  lead: "lead",
  path: "/signup",
  Form: SignUpForm,
});
export const generateMetadata = page.generateMetadata;
export default page.Page;
