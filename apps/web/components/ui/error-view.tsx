import Link from "next/link";

/** Spec section 2: the status code, "Ooops.", the message and a "Go back" button to "/". */
export function ErrorView({ status, message, back }: { status: number; message: string; back: string }) {
  return (
    <main className="error-page">
      <p className="error-status" data-testid="error-status">
        {status}
      </p>
      <h1>Ooops.</h1>
      <p className="error-message">{message}</p>
      <Link href="/" className="btn btn-primary">
        {back}
      </Link>
    </main>
  );
}
