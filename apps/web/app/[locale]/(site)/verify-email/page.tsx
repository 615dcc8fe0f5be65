import { narrowFormPage } from "@/components/ui/narrow-form-page.tsx";
import { ResendVerification } from "@/features/auth/resend-verification.tsx";

const page = narrowFormPage({
  namespace: "verify",
  title: "title",
  lead: "lead",
  path: "/verify-email",
  Form: ResendVerification,
});
export const generateMetadata = page.generateMetadata;
export default page.Page;
