/** Query parameters whose values are secrets and must never reach a log line. */
const secretParams = new Set([
  "token",
  "ref",
  "emailtoken",
  "deletiontoken",
  "code",
  "key",
  "signature",
  // The checkout's secret (outcome and cancel URLs).
  "secret",
]);

/**
 * Hides secrets in a URL before it is logged: long opaque path segments (order, e-mail and deletion
 * tokens) and the values of secret query parameters.
 */
export function redactUrl(url: string): string {
  const [pathPart = "", query] = url.split("?", 2);
  const safePath = pathPart
    .split("/")
    .map((seg) => (/^[A-Za-z0-9_-]{20,}$/.test(seg) ? "[redacted]" : seg))
    .join("/");
  if (query === undefined) return safePath;
  const params = new URLSearchParams(query);
  for (const name of [...params.keys()]) {
    if (secretParams.has(name.toLowerCase())) params.set(name, "[redacted]");
  }
  return `${safePath}?${params.toString()}`;
}

/** pino paths removed from every log line. */
export const redactPaths = [
  "req.headers.cookie",
  "req.headers.authorization",
  'req.headers["x-api-key"]',
  'res.headers["set-cookie"]',
  "*.password",
  "*.newPassword",
  "*.oldPassword",
  "*.token",
  "*.turnstileToken",
  "*.code",
  "*.secret",
];
