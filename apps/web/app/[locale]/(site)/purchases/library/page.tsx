import { LibraryView } from "@/features/purchases/library-view.tsx";
import {
  PurchasesPage,
  type PurchasesPageProps,
  purchasesMetadata,
} from "@/features/purchases/purchases-page.tsx";
import "@/features/purchases/purchases.css";

const texts = { title: "libraryTitle", lead: "libraryLead", path: "/purchases/library" };
export const generateMetadata = (props: PurchasesPageProps) => purchasesMetadata(props, texts);

/** The library this tab opened with an e-mailed link (its access is in sessionStorage). */
export default function Page(props: PurchasesPageProps) {
  return (
    <PurchasesPage {...props} texts={texts} wide>
      <LibraryView />
    </PurchasesPage>
  );
}
