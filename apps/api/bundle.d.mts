import type { BuildOptions, BuildResult } from "esbuild";

export function bundleServer<T extends Omit<BuildOptions, "outfile">>(
  options: T & { outfile: string },
): Promise<BuildResult<T>>;
