// Runs before each e2e file, in the worker of its lane. A lane's worker process stays for all its files
// (test/vitest.config.ts: isolate off with lanes), so node_modules load once per lane instead of once per
// file (5-10 s of imports a file on two busy cores). The project's own modules start fresh for each
// file, as they did when every file had a process of its own: no state of one file's modules is
// seen by the next.
import { vi } from "vitest";

vi.resetModules();
