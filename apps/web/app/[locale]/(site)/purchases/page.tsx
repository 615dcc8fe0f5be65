import {
  PurchasesPage,
  type PurchasesPageProps,
  purchasesMetadata,
} from "@/features/purchases/purchases-page.tsx";
import { RequestLinkForm } from "@/features/purchases/request-link-form.tsx";
import "@/features/purchases/purchases.css";

const texts = { title: "title", lead: "lead", path: "/purchases" };
export const generateMetadata = (props: PurchasesPageProps) => purchasesMetadata(props, texts);

/** "Send me my purchases" (issue 21): an address in, a one-time link to the library by e-mail. */
export default function Page(props: PurchasesPageProps) {
  return (
    <PurchasesPage {...props} texts={texts}>
      <RequestLinkForm />
    </PurchasesPage>
  );
}
