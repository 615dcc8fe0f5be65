import { createConnection } from "node:net";

/** REDIS_URL, or a Redis on the default local port when one answers (tests of the Redis stores). */
export const redisUrl: string | undefined =
  process.env.REDIS_URL ??
  (await new Promise<string | undefined>((resolve) => {
    const socket = createConnection({ host: "127.0.0.1", port: 6379 });
    socket.setTimeout(300);
    socket.once("connect", () => {
      socket.destroy();
      resolve("redis://127.0.0.1:6379");
    });
    socket.once("error", () => resolve(undefined));
    socket.once("timeout", () => {
      socket.destroy();
      resolve(undefined);
    });
  }));
