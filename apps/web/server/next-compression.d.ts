// Next.js's bundled copy of the `compression` middleware (what `next start` runs), untyped there.
declare module "next/dist/compiled/compression/index.js" {
  import type { IncomingMessage, ServerResponse } from "node:http";

  export default function compression(): (
    req: IncomingMessage,
    res: ServerResponse,
    next: () => void,
  ) => void;
}
