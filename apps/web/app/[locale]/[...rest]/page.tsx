import { notFound } from "next/navigation";

/** Every path no page claims renders the localised 404 page. */
export default function CatchAll(): never {
  notFound();
}
