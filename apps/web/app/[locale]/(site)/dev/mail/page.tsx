import { NarrowFormPage, narrowFormMetadata, type PageProps } from "@/components/ui/narrow-form-page.tsx";
import { OutboxList } from "@/features/dev-mail/outbox-list.tsx";

const texts = { namespace: "devMail", title: "title", lead: "lead", path: "/dev/mail" };
export const generateMetadata = (props: PageProps) => narrowFormMetadata(props, texts);

export default function Page(props: PageProps) {
  return (
    <NarrowFormPage {...props} texts={texts}>
      <OutboxList />
    </NarrowFormPage>
  );
}
