"use client";

/** Last resort when the root layout itself fails: no translations are available here. */
export default function GlobalError() {
  return (
    <html lang="en">
      <body style={{ fontFamily: "system-ui, sans-serif", textAlign: "center", padding: "4rem 1rem" }}>
        <p style={{ fontSize: "3rem", fontWeight: 700, margin: 0 }}>500</p>
        <h1>Ooops.</h1>
        <p>Something went wrong on our side. Please try again.</p>
        <a href="/">Go back</a>
      </body>
    </html>
  );
}
