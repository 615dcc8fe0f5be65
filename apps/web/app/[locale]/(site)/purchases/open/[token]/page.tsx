import { OpenLink } from "@/features/purchases/open-link.tsx";
import { PurchasesPage, purchasesMetadata } from "@/features/purchases/purchases-page.tsx";
import "@/features/purchases/purchases.css";

type Props = { params: Promise<{ locale: string; token: string }> };

const texts = { title: "openTitle", lead: "openLead", path: "/purchases" };
export const generateMetadata = (props: Props) => purchasesMetadata(props, texts);

/** The e-mailed link: spent by the browser (a mail scanner's GET spends nothing), then the library. */
export default async function Page(props: Props) {
  const { token } = await props.params;
  return (
    <PurchasesPage params={props.params} texts={texts}>
      <OpenLink token={token} />
    </PurchasesPage>
  );
}
