// A per-request stage trace of the write path (issue 40, B5): timestamps (performance.now(), ms) at
// named points of one POST, written as one JSON line per request to STAGE_TRACE_FILE. Off by default:
// then `mark` is one module-level check and nothing else. A diagnostic, never read by the API itself.
import { AsyncLocalStorage } from "node:async_hooks";
import { appendFileSync } from "node:fs";

type Trace = { path: string; t0: number; marks: [string, number][] };
const store = new AsyncLocalStorage<Trace>();
let file: string | undefined;

/** Turns the trace on (api/app.ts, from STAGE_TRACE_FILE); undefined keeps it off. */
export function enableStageTrace(path: string | undefined): void {
  file = path || undefined;
}

/** True while a trace file is set. */
export const stageTraceOn = (): boolean => file !== undefined;

/** Runs `fn` as one traced request (`t0`: when it came in); its marks are written when it settles. */
export async function traced<T>(path: string, t0: number, fn: () => Promise<T>): Promise<T> {
  if (!file) return fn();
  const t: Trace = { path, t0, marks: [] };
  try {
    return await store.run(t, fn);
  } finally {
    t.marks.push(["out", performance.now()]);
    try {
      appendFileSync(file, `${JSON.stringify({ path: t.path, at: Date.now(), t0: t.t0, marks: t.marks.map(([n, at]) => [n, Math.round((at - t.t0) * 100) / 100]) })}\n`);
    } catch {
      // a diagnostic: a full disk never fails a request
    }
  }
}

/** Records `name` now (or at `at`) in the current request's trace; nothing when tracing is off. */
export function mark(name: string, at?: number): void {
  if (!file) return;
  store.getStore()?.marks.push([name, at ?? performance.now()]);
}

/** A `mark` bound to the current request's trace, for code that runs outside its async context (a shared loop). */
export function tracer(): (name: string, at?: number) => void {
  const t = file ? store.getStore() : undefined;
  return t ? (name, at) => void t.marks.push([name, at ?? performance.now()]) : () => {};
}
