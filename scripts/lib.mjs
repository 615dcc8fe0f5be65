// Shared helpers of the start and test scripts (plain Node, no dependencies: they run before install).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Runs a command, streaming its output; resolves with the exit code. */
export function run(command, args, options = {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      stdio: "inherit",
      ...options,
      env: { ...process.env, ...options.env },
    });
    child.on("error", (err) => {
      console.error(`could not run ${command}: ${err.message}`);
      resolve(127);
    });
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  });
}

export function tcpReachable(host, port, timeoutMs = 1000) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once("connect", () => done(true));
    socket.once("error", () => done(false));
  });
}

/** Installs the npm dependencies when a fresh clone has none. */
export async function ensureDependencies() {
  if (existsSync(path.join(root, "node_modules", ".package-lock.json"))) return;
  console.log("\n▶ Installing npm dependencies (fresh clone)");
  const code = await run("npm", ["install", "--no-audit", "--no-fund"]);
  if (code !== 0) throw new Error("npm install failed");
}

export const bin = (name) => path.join(root, "node_modules", ".bin", name);
