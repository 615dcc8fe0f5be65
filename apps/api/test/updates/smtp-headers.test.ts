import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { describe, expect, it, onTestFinished } from "vitest";
import { renderMail } from "../../src/modules/mail/render.ts";
import { SmtpMailProvider } from "../../src/providers/mail/index.ts";

/*
 * An update's e-mail carries RFC 8058's one-click unsubscribe headers through the SMTP adapter, to
 * a real (local) SMTP server.
 */

async function smtpServer() {
  const received: string[] = [];
  const server = new SMTPServer({
    logger: false,
    disabledCommands: ["STARTTLS", "AUTH"],
    onData(stream, _session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        received.push(Buffer.concat(chunks).toString("utf8"));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  onTestFinished(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { port: (server.server.address() as AddressInfo).port, received };
}

describe("the SMTP adapter", () => {
  it("sends a message's own headers: List-Unsubscribe and List-Unsubscribe-Post", async () => {
    const { port, received } = await smtpServer();
    const provider = new SmtpMailProvider({
      host: "127.0.0.1",
      port,
      secure: false,
      from: "Salelink <no-reply@salelink.test>",
    });
    const unsubscribe = "https://api.salelink.test/updates/unsubscribe/abc.def";
    await provider.send(
      {
        to: "buyer@example.test",
        template: "buyer-update",
        locale: "en",
        headers: {
          "List-Unsubscribe": `<${unsubscribe}>`,
          "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
        },
        ...renderMail("buyer-update", "en", {
          url: "https://app.salelink.test/unsubscribe/abc.def",
          subject: "News",
          body: "Hello",
          creator: "Ada",
        }),
      },
      { idempotencyKey: "update-1-2" },
    );
    expect(received).toHaveLength(1);
    const raw = received[0] ?? "";
    expect(raw).toMatch(new RegExp(`^List-Unsubscribe: <${unsubscribe.replace(/[.]/g, "\\.")}>\\r$`, "m"));
    expect(raw).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click\r$/m);
    expect(raw).toMatch(/^Message-ID: <update-1-2@salelink\.test>\r$/m);
  });
});
