import { narrowFormPage } from "@/components/ui/narrow-form-page.tsx";
import { ForgotPasswordForm } from "@/features/auth/forgot-password-form.tsx";

const page = narrowFormPage({
  namespace: "password",
  title: "forgotTitle",
  lead: "forgotLead",
  path: "/forgot-password",
  Form: ForgotPasswordForm,
});
export const generateMetadata = page.generateMetadata;
export default page.Page;
