// STAGE_TRACE_FILE (a diagnostic, api/lib/stage-trace.ts): set, each POST appends one JSON line with
// its stages in the order a relayed create passes them; a GET writes nothing; an API started without
// the setting writes nothing.
import { mkdtempSync, readFileSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { type Abi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operatorRegistryAbi } from "../../abis/index.ts";
import { operatorOf } from "../../domain/index.ts";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { chainEnv } from "./indexer-helpers.ts";

const file = path.join(mkdtempSync(path.join(tmpdir(), "stage-trace-")), "trace.jsonl");
const lines = () => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)) : []);
const mission = (title: string) => ({
  title, description: "stage trace", rewardAmount: "1", category: "delivery", expiresIn: 3600,
  location: { latitude: 52.52, longitude: 13.4, radius: 150 },
});

let chain: ReturnType<typeof chainEnv>;
let api: TestApi | undefined;

beforeAll(() => {
  chain = chainEnv();
});
afterAll(async () => {
  await api?.stop();
});

async function poster(base: string) {
  const u = await chain.freshUser();
  await chain.send(u, chain.c.OperatorRegistry.address, operatorRegistryAbi as Abi, "setOperator", [operatorOf(chain.deployment), true]);
  return signIn(base, u);
}

describe("STAGE_TRACE_FILE", () => {
  it("set: a create writes one line whose stages run in order, from the request to the response; a GET writes none", async () => {
    api = await startTestApi({ STAGE_TRACE_FILE: file, REACTORS_ENABLED: "false" }, { indexer: "shared" });
    const token = await poster(api.url);
    const before = lines().length; // sign-in POSTs are traced too
    const res = await call(api.url, "POST", "/missions", { token, body: mission("traced"), headers: { "idempotency-key": `trace-${Date.now()}` } });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect((await call(api.url, "GET", `/missions/${res.body.data.id}`)).status).toBe(200);
    const added = lines().slice(before);
    expect(added).toHaveLength(1);
    const [line] = added;
    expect(line.path).toBe("/missions");
    const names: string[] = line.marks.map((m: [string, number]) => m[0]);
    const at = (name: string) => {
      const m = line.marks.find((x: [string, number]) => x[0] === name);
      expect(m, `mark ${name} in ${names.join(",")}`).toBeDefined();
      return m[1] as number;
    };
    const order = ["auth", "claim", "checks", "allocated", "receipt", "indexed", "out"].map(at);
    for (let i = 1; i < order.length; i++) expect(order[i]).toBeGreaterThanOrEqual(order[i - 1]!);
    expect(names[names.length - 1]).toBe("out");
    await api.stop();
    api = undefined;
  });

  it("unset (the default): an API started without it writes nothing", async () => {
    api = await startTestApi({ REACTORS_ENABLED: "false" }, { indexer: "shared" });
    const token = await poster(api.url);
    const before = lines().length;
    const res = await call(api.url, "POST", "/missions", { token, body: mission("untraced") });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(lines().length).toBe(before);
  });
});
