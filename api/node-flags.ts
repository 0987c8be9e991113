/**
 * Node (V8) flags the API process is started with: by `npm start` (script/start.ts), the bench and the
 * chaos script. They cannot be set from inside the process (V8 reads them when the heap is set up;
 * `v8.setFlagsFromString` at start did not change what it promotes), so whoever starts
 * `api/server.ts` passes them: `node --no-allocation-site-pretenuring --no-memory-reducer --import tsx api/server.ts`.
 *
 * `--no-allocation-site-pretenuring`: V8 allocates the objects of an allocation site straight in the old
 * generation once most of them survived a scavenge. The API's start and any burst of 64 concurrent
 * requests make a read's own objects (node's HTTP parser and IncomingMessage, the response path, pg's
 * row parsing, pg-pool's queue entries) look long-lived, so V8 then tenured them for good: 618-685
 * bytes of every later read went to the old generation against 157 for B1's baseline, and the full
 * collections that clear them run on the core the API shares with PostgreSQL. Without pretenuring:
 * 245 bytes a read (script/bench/lib/mission-read-survivors.ts; docs/decisions.md "B1: the objects
 * V8 tenured (session 35)"). The long-lived data (the feed index) sits in array buffers either way.
 *
 * `--no-memory-reducer`: V8 shrinks an idle process's heap (full collections, the young generation cut
 * to its minimum, pages given back) a few seconds after its allocation rate drops. The next burst then
 * grows it back page by page, and on a virtual machine whose guest reports free pages to the host (this
 * machine's Firecracker does, in 8-MB blocks) every page given back is a host fault when it is touched
 * again. Measured at 2,200 req/s after 15-30 s idle: an episode 0.6-1.3 s into the load of 100-390 ms
 * with the reducer, none in four passes without it (p99 6.0-8.7 ms against the baseline's 6.5-11.4).
 * Cost: the API keeps its working-set heap while idle.
 */
export const API_NODE_FLAGS: readonly string[] = ["--no-allocation-site-pretenuring", "--no-memory-reducer"];
