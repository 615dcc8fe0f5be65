/**
 * A Content-Disposition value that saves the file as `name` (RFC 6266): a plain ASCII fallback for
 * old clients and the exact UTF-8 name in filename*. Quotes, backslashes and control characters are
 * dropped so a creator's file name cannot inject header syntax.
 */
export function attachmentDisposition(name: string): string {
  const cleaned = name.replace(/[\p{Cc}"\\]/gu, "").trim() || "download";
  const ascii = cleaned.replace(/[^\x20-\x7e]/g, "_");
  const encoded = encodeURIComponent(cleaned).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}
