// `node --import tsx script/forge.ts <args>`: runs the native forge binary and exits with its code.
// The npm wrapper (`node_modules/.bin/forge`, @foundry-rs/forge 1.7.1) always exits 0, so a failing
// build or test would look green in `npm test`.
import { spawn } from "node:child_process";
import os from "node:os";
import { foundryBinary } from "./lib/foundry.ts";

const child = spawn(foundryBinary("forge"), process.argv.slice(2), { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => child.kill(signal));
child.on("error", (err) => {
  console.error(err.message);
  process.exit(1);
});
child.on("exit", (code, signal) => process.exit(code ?? 128 + (signal ? os.constants.signals[signal] : 1)));
