import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";

/**
 * The native binary of a Foundry tool from its npm platform package (@foundry-rs/<tool>-<os>-<arch>).
 * We run it directly: the `.bin/<tool>` node wrapper survives a kill of its pid (anvil would keep
 * its port) and costs a node start per call.
 */
export function foundryBinary(tool: "anvil" | "forge" | "cast"): string {
  const platform = { linux: "linux", darwin: "darwin", win32: "win32" }[os.platform() as string] ?? os.platform();
  const arch = { x64: "amd64", arm64: "arm64" }[os.arch() as string] ?? os.arch();
  const pkg = `@foundry-rs/${tool}-${platform}-${arch}`;
  const require = createRequire(import.meta.url);
  let dir: string;
  try {
    dir = path.dirname(require.resolve(`${pkg}/package.json`));
  } catch {
    throw new Error(`${pkg} is not installed: run npm install`);
  }
  const bin = path.join(dir, "bin", os.platform() === "win32" ? `${tool}.exe` : tool);
  if (!fs.existsSync(bin)) throw new Error(`${tool} binary missing at ${bin}`);
  return bin;
}
