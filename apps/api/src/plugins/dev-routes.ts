import { isIPv4, isIPv6 } from "node:net";
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";

/** 127.0.0.0/8, ::1, and IPv4 loopback mapped into IPv6 (::ffff:127.x.x.x), as sockets report them. */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const bare = address.replace(/^\[(.*)\]$/, "$1");
  if (isIPv4(bare)) return bare.split(".")[0] === "127";
  if (!isIPv6(bare)) return false;
  if (bare === "::1" || bare === "0:0:0:0:0:0:0:1") return true;
  const mapped = /^(?:0{0,4}:){0,5}:?ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(bare);
  return mapped?.[1] !== undefined && isIPv4(mapped[1]) && mapped[1].split(".")[0] === "127";
}

/**
 * onRequest hook of every /dev route: they have no authentication, so only this machine may use them.
 * Both the socket's peer and the client address (which TRUST_PROXY may take from X-Forwarded-For)
 * must be loopback: a proxy on this machine forwarding an outside request is not a local client.
 * Anyone else gets the unknown-route answer, so the routes' existence is not given away.
 */
export function loopbackOnly(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
  if (isLoopback(request.socket.remoteAddress) && isLoopback(request.ip)) {
    done();
    return;
  }
  reply.callNotFound();
}
