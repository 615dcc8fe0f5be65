import { narrowFormPage } from "@/components/ui/narrow-form-page.tsx";
import { OutboxList } from "@/features/dev-mail/outbox-list.tsx";

const page = narrowFormPage({
  namespace: "devMail",
  title: "title",
  lead: "lead",
  path: "/dev/mail",
  Form: OutboxList,
});
export const generateMetadata = page.generateMetadata;
export default page.Page;
