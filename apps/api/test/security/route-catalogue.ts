import type { FastifyInstance } from "fastify";

/*
 * The routes the app registers, read from the app itself (its printed route tree) rather than from a
 * list kept by hand: the access matrix, the admin access test and the fuzzer all start from it, so a
 * route added tomorrow is missing from their tables the day it appears.
 */

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
export interface Route {
  method: Method;
  url: string;
}

const methods = new Set<string>(["GET", "POST", "PUT", "PATCH", "DELETE"]);
const isMethod = (m: string): m is Method => methods.has(m);

/**
 * Parses Fastify's printRoutes tree ("│   ├── segment (GET, HEAD)") into full paths and methods.
 * The radix tree (the default, common prefixes shared) is the one to read: the flattened form
 * (`commonPrefix: false`) drops the parent of a wildcard, printing `/files/*` as a bare `*`.
 * HEAD (added by Fastify to every GET) and OPTIONS (the CORS preflight) are left out.
 */
export function routesOf(tree: string): Route[] {
  const stack: string[] = [];
  const routes: Route[] = [];
  for (const line of tree.split("\n")) {
    const match = /^((?:│ {3}| {4})*)[├└]── (.+?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = (match[1] ?? "").length / 4;
    const segment = match[2] === "(empty root node)" ? "" : (match[2] ?? "");
    stack.length = depth;
    const path = `${stack.join("")}${segment}`;
    stack.push(segment);
    for (const method of (match[3] ?? "").split(", ")) {
      if (isMethod(method)) routes.push({ method, url: path });
    }
  }
  return routes;
}

/** Every route of the app, in a stable order. */
export function appRoutes(app: FastifyInstance): Route[] {
  return routesOf(app.printRoutes()).sort((a, b) => routeKey(a).localeCompare(routeKey(b)));
}

export const routeKey = (route: Route): string => `${route.method} ${route.url}`;
