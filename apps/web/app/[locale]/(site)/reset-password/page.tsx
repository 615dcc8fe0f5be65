import { narrowFormPage } from "@/components/ui/narrow-form-page.tsx";
import { ResetPasswordForm } from "@/features/auth/reset-password-form.tsx";

const page = narrowFormPage({
  namespace: "password",
  title: "resetTitle",
  lead: "resetLead",
  path: "/reset-password",
  Form: ResetPasswordForm,
});
export const generateMetadata = page.generateMetadata;
export default page.Page;
