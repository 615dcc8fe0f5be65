import { type ChildProcess, spawn } from "node:child_process";
import { lookup } from "node:dns/promises";
import { once } from "node:events";
import { createServer } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";

export const host = "127.0.0.1";

/** Asks the kernel for a free loopback port; the tiny window before the server binds it is acceptable here. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, host);
  await once(server, "listening");
  const address = server.address();
  server.close();
  await once(server, "close");
  if (address === null || typeof address === "string") throw new Error("Could not read a free port");
  return address.port;
}

/** The address a host name resolves to, refusing anything but loopback: nothing here leaves the machine. */
export async function loopbackAddress(name: string): Promise<string> {
  const { address } = await lookup(name);
  if (!address.startsWith("127.") && address !== "::1") {
    throw new Error(`"${name}" resolves to ${address}, not a loopback address`);
  }
  return address;
}

export interface Spawned {
  name: string;
  child: ChildProcess;
  /** The last lines the process wrote, to explain a failure. */
  tail(): string;
  /** Set once the process has exited, with its code or signal. */
  exited: Promise<string>;
  /** How it exited, or undefined while it runs. */
  exitedWith(): string | undefined;
}

const running = new Set<Spawned>();
const tailLines = 80;

export interface SpawnOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
  /** Echo output to the terminal, prefixed with the process name. */
  echo: boolean;
}

export function start(name: string, command: string, args: string[], options: SpawnOptions): Spawned {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group, so that stopping it also stops whatever it spawned (npm → node, next's
    // workers) and so that a Ctrl-C reaches only this script, which then stops everything in order.
    detached: true,
  });
  const lines: string[] = [];
  let how: string | undefined;
  const collect = (chunk: Buffer) => {
    for (const line of chunk.toString("utf8").split("\n")) {
      if (line.trim() === "") continue;
      lines.push(line);
      if (lines.length > tailLines) lines.shift();
      if (options.echo) console.log(`  [${name}] ${line}`);
    }
  };
  child.stdout?.on("data", collect);
  child.stderr?.on("data", collect);
  const exited = new Promise<string>((resolve) => {
    child.once("exit", (code, signal) => {
      running.delete(spawned);
      resolve(signal ? `signal ${signal}` : `code ${code}`);
    });
    child.once("error", (err) => {
      running.delete(spawned);
      resolve(`spawn error: ${err.message}`);
    });
  });
  void exited.then((h) => {
    how = h;
  });
  const spawned: Spawned = { name, child, tail: () => lines.join("\n"), exited, exitedWith: () => how };
  running.add(spawned);
  return spawned;
}

function signalGroup(spawned: Spawned, signal: NodeJS.Signals): void {
  const pid = spawned.child.pid;
  if (pid === undefined) return;
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** SIGTERM to the process group, SIGKILL after a grace period. */
export async function stop(spawned: Spawned, graceMs = 5_000): Promise<void> {
  if (!running.has(spawned)) return;
  signalGroup(spawned, "SIGTERM");
  const result = await Promise.race([spawned.exited, sleep(graceMs, "timeout")]);
  if (result === "timeout") {
    signalGroup(spawned, "SIGKILL");
    await Promise.race([spawned.exited, sleep(2_000)]);
  }
  // Children of the group may outlive its leader (next start's workers): make sure none is left.
  signalGroup(spawned, "SIGKILL");
}

/** Stops every process started by this script, newest first. */
export async function stopAll(): Promise<void> {
  for (const spawned of [...running].reverse()) await stop(spawned);
}

/** Last resort on a synchronous exit: no time to wait, so kill outright. */
export function killAllNow(): void {
  for (const spawned of running) signalGroup(spawned, "SIGKILL");
}

/** Runs a command to completion (a build), failing with its output if it fails or takes too long. */
export async function runToEnd(
  name: string,
  command: string,
  args: string[],
  options: SpawnOptions & { timeoutMs: number },
): Promise<void> {
  const spawned = start(name, command, args, options);
  const result = await Promise.race([spawned.exited, sleep(options.timeoutMs, "timeout")]);
  if (result === "timeout") {
    await stop(spawned);
    throw new Error(`${name} took longer than ${options.timeoutMs / 1000} s\n${spawned.tail()}`);
  }
  if (result !== "code 0") throw new Error(`${name} failed (${result})\n${spawned.tail()}`);
}

/**
 * Polls a URL until it answers 2xx; fails early with the server's output if the server exits.
 * Follows no redirects, so a redirecting page is reported rather than silently measured elsewhere.
 */
export async function waitUntilReady(
  spawned: Spawned,
  url: string,
  headers: Record<string, string>,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = "no answer yet";
  let exited: string | undefined;
  void spawned.exited.then((how) => {
    exited = how;
  });
  while (Date.now() < deadline) {
    if (exited !== undefined) {
      throw new Error(`${spawned.name} exited (${exited}) before it was ready\n${spawned.tail()}`);
    }
    try {
      const res = await fetch(url, { headers, redirect: "manual", signal: AbortSignal.timeout(5_000) });
      await res.arrayBuffer();
      if (res.ok) return;
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = err instanceof Error ? err.message : String(err);
    }
    await sleep(250);
  }
  throw new Error(
    `${spawned.name} was not ready at ${url} within ${timeoutMs / 1000} s (${last})\n${spawned.tail()}`,
  );
}
