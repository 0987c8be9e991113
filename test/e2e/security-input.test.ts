// Bad input: fast-check property tests against every JSON route of the real router
// (bodies and query strings, enumerated from `app.routes` and typed by the OpenAPI document that the
// same zod schemas produce). Every answer must be 400/413/415 (or a 4xx the route documents) in the
// error envelope with field + reason, never a 500, and nothing may change: every table of the `api`
// schema and the relayer's nonce are compared before and after.
import http from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { MATRIX, type Fixture, type Who } from "./security-matrix.ts";

let api: TestApi;
let token: string;
let doc: any;
let sent = 0;
let resent = 0;
const answers = new Map<number, number>();
const problems: string[] = [];

/** Routes that take no JSON: bodies are not parsed (proxy, uploads, docs). Checked separately. */
const NOT_JSON = new Set(["POST /graphql", "POST /resolver/disputes/:id/evidence"]);

const uuid = () => crypto.randomUUID();
/** A fixture of ids that exist nowhere: a request that slips through validation reaches a handler that finds nothing. */
const fakeFixture = (): Fixture => {
  const u = { id: uuid(), address: `0x${"ab".repeat(20)}` };
  const users = Object.fromEntries(
    ["poster", "performer", "stranger", "curator", "resolver", "appeals", "poster2", "performer2", "vault1", "vault2"].map((w) => [w, u]),
  ) as Record<Who, typeof u>;
  return {
    users, missionOpen: uuid(), missionToAccept: uuid(), missionToCancel: uuid(), missionAccepted: uuid(), missionSubmitted: uuid(),
    missionToDispute: uuid(), missionCompleted: uuid(), missionGuild: uuid(), guild: uuid(), disputePending: uuid(),
    disputeInvestigating: uuid(), disputeResolved: uuid(), disputeAppealed: uuid(), notificationOfPoster: uuid(), webhookOfPoster: uuid(),
  };
};

async function raw(method: string, path: string, body?: string | ReadableStream, headers: Record<string, string> = {}) {
  sent++;
  // fetch labels a string body text/plain: bytes carry no content type at all.
  const payload = typeof body === "string" && !headers["Content-Type"] ? new TextEncoder().encode(body) : body;
  const init: RequestInit & { duplex?: string } = {
    method,
    headers: { Authorization: `Bearer ${token}`, ...headers },
    body: payload,
  };
  if (body instanceof ReadableStream) init.duplex = "half";
  let res: Response;
  try {
    res = await fetch(`${api.url}${path}`, init);
  } catch (err) {
    // After a 413 the server closes a connection whose body it did not read; the client may already
    // have picked that socket for the next request ("other side closed"): resend once on a new one.
    if (body instanceof ReadableStream || !/other side closed|ECONNRESET/.test(String((err as { cause?: unknown }).cause))) throw err;
    resent++;
    res = await fetch(`${api.url}${path}`, init);
  }
  const text = await res.text();
  let parsed: any = text;
  try { parsed = JSON.parse(text); } catch { /* not JSON */ }
  answers.set(res.status, (answers.get(res.status) ?? 0) + 1);
  return { status: res.status, body: parsed };
}

/**
 * 200 KiB of JSON without a Content-Length (Transfer-Encoding: chunked), over node:http: the server
 * may answer 413 and close while the body is still being written, which fetch reports as a failure.
 */
function chunked(method: string, path: string): Promise<{ status: number; body: any }> {
  sent++;
  return new Promise((resolve, reject) => {
    // Transfer-Encoding set explicitly: node:http chunks POST/PUT/PATCH bodies by default but not
    // DELETE's, whose bytes would then go out unframed (the server rightly answers 400 to garbage).
    const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json", "Transfer-Encoding": "chunked", Connection: "close" };
    const req = http.request(`${api.url}${path}`, { method, headers }, (res) => {
      let text = "";
      res.on("data", (d) => (text += d));
      res.on("end", () => {
        answers.set(res.statusCode!, (answers.get(res.statusCode!) ?? 0) + 1);
        let body: any = text;
        try { body = JSON.parse(text); } catch { /* not JSON */ }
        resolve({ status: res.statusCode!, body });
      });
    });
    req.on("error", (err) => (/EPIPE|ECONNRESET/.test(String(err)) ? undefined : reject(err)));
    req.write('{"a":"');
    let i = 0;
    const more = () => {
      while (i++ < 50) if (!req.write("x".repeat(4096))) return void req.once("drain", more);
      req.end('"}');
    };
    more();
  });
}

/** The answer must be one of `allowed`, in the envelope; a 400 names field + reason. */
function judge(what: string, res: { status: number; body: any }, allowed: number[]) {
  const e = res.body?.error;
  const bad =
    !allowed.includes(res.status) ||
    typeof e?.code !== "string" ||
    typeof e?.message !== "string" ||
    (res.status === 400 && e.code === "VALIDATION_ERROR" &&
      !(Array.isArray(e.details) && e.details.length > 0 && e.details.every((d: any) => typeof d.field === "string" && d.field && typeof d.reason === "string" && d.reason)));
  if (bad) problems.push(`${what}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return !bad;
}

// ---- state: every api.* table (users without last_active_at, which any authenticated call touches) + relayer nonce
async function snapshot() {
  const pool = api.server.deps.database.pool;
  const tables = (await pool.query(
    "SELECT table_name FROM information_schema.tables WHERE table_schema = 'api' AND table_type = 'BASE TABLE' ORDER BY 1",
  )).rows.map((r) => r.table_name as string);
  const out: Record<string, string> = {};
  for (const t of tables) {
    const cols = t === "users" ? "to_jsonb(x) - 'last_active_at'" : "to_jsonb(x)";
    const r = await pool.query(`SELECT count(*)::int AS n, md5(coalesce(string_agg((${cols})::text, ',' ORDER BY (${cols})::text), '')) AS h FROM api."${t}" x`);
    out[t] = `${r.rows[0].n}:${r.rows[0].h}`;
  }
  const relayer = api.server.deps.relayer!.address;
  out["relayer nonce"] = String(await api.server.deps.chain.publicClient.getTransactionCount({ address: relayer, blockTag: "pending" }));
  return out;
}

// ---- schema-driven invalid values
type Schema = Record<string, any>;
const deref = (s: Schema | undefined): Schema => {
  if (!s) return {};
  if (s.$ref) return deref(doc.components.schemas[s.$ref.split("/").pop()]);
  return s;
};
const typesOf = (s: Schema): Set<string> => {
  s = deref(s);
  const alts = s.anyOf ?? s.oneOf;
  if (alts) return new Set(alts.flatMap((a: Schema) => [...typesOf(a)]));
  if (s.enum) return new Set(["string"]);
  const t = Array.isArray(s.type) ? s.type : s.type ? [s.type] : ["any"];
  if (s.nullable) t.push("null");
  return new Set(t.map((x: string) => (x === "integer" ? "number" : x)));
};
const ZW = ["\u200b", "\u200d", "\ufeff", "\u202e", "\u2066"];
const LONE = ["\ud800", "\udfff", "a\ud83d", "\udc00b"];

/** Values that every schema of this shape must refuse (empty when the schema accepts anything). */
function invalidValues(s: Schema, name: string, query = false): fc.Arbitrary<unknown> | null {
  s = deref(s);
  const types = typesOf(s);
  if (types.has("any")) return null;
  const opts: fc.Arbitrary<unknown>[] = [];
  const wrong: fc.Arbitrary<unknown>[] = [];
  if (query) {
    // A query value is always a string: "wrong type" means text where a number or boolean is due.
    if (!types.has("string") && types.has("number")) wrong.push(fc.constantFrom("abc", "1x", "[1]", "1,5", "--1", "1e", "\u202e1", "1\u200b"));
    if (!types.has("string") && types.has("boolean")) wrong.push(fc.constantFrom("maybe", "2", "tru e", "TRUE\u200b"));
    types.add("string").add("number").add("boolean").add("null").add("array").add("object");
  }
  if (!types.has("string")) wrong.push(fc.string({ maxLength: 20 }), fc.constantFrom("", "1", "true", "null", "\u202e1"));
  if (!types.has("number")) wrong.push(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }), fc.constant(1e308));
  if (!types.has("boolean")) wrong.push(fc.boolean());
  if (!types.has("null")) wrong.push(fc.constant(null));
  if (!types.has("array")) wrong.push(fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }));
  if (!types.has("object")) wrong.push(fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }));
  opts.push(...wrong);
  const alts = s.anyOf ?? s.oneOf;
  if (!alts && types.has("string")) {
    if (s.enum) {
      opts.push(
        fc.string({ maxLength: 12 }).filter((v) => !s.enum.includes(v)),
        fc.constantFrom(...s.enum.map((e: string) => e.toUpperCase() === e ? e.toLowerCase() : e.toUpperCase())).filter((v) => !s.enum.includes(v)),
        fc.tuple(fc.constantFrom(...s.enum), fc.constantFrom(...ZW, ...LONE)).map(([e, z]) => `${e}${z}`),
      );
    }
    if (typeof s.maxLength === "number") {
      opts.push(fc.tuple(fc.integer({ min: 1, max: 5000 }), fc.constantFrom("a", "\u202e", "\u200b", "é", "🙂")).map(([k, ch]) => ch.repeat(Math.ceil((s.maxLength + k) / ch.length))));
    }
    if (typeof s.minLength === "number" && s.minLength > 0) opts.push(fc.constant(""));
    if (s.pattern || s.format === "uuid" || s.format === "uri") {
      opts.push(fc.tuple(fc.constantFrom(...ZW, ...LONE, " ", "\n", "%00"), fc.constantFrom("0x" + "ab".repeat(20), uuid(), "https://example.com")).map(([z, v]) => `${v.slice(0, 5)}${z}${v.slice(5)}`));
    }
    if (/amount|reward/i.test(name)) {
      opts.push(fc.constantFrom("-1", "-0.000001", "1.0000001", "0.1234567", "1e3", "1E-6", "", " 1", "1 ", "1,5", "0x10", "١٢", "１２", "NaN", "Infinity", "1..2", ".", "+1", "9".repeat(400), "1\u200b", "\u202e1"));
    }
  }
  if (!alts && types.has("number")) {
    const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum : undefined);
    const max = s.maximum ?? (s.exclusiveMaximum !== undefined ? s.exclusiveMaximum : undefined);
    if (typeof min === "number") opts.push(fc.double({ max: min - 1e-9, noNaN: true, noDefaultInfinity: true }), fc.constant(-1e308), fc.constant(min - 1));
    if (typeof min === "number" && s.exclusiveMinimum === min) opts.push(fc.constant(min));
    if (typeof max === "number") opts.push(fc.double({ min: max + 1e-6, noNaN: true, noDefaultInfinity: true }), fc.constant(1e308), fc.constant(2 ** 64));
    if (s.type === "integer") opts.push(fc.constantFrom(0.5, 1.000001, 1e-7, 60.5));
  }
  return opts.length ? fc.oneof(...opts) : null;
}

/** Leaves of a body: [path, schema] for every property the schema knows (one level of nesting). */
function slots(schema: Schema, prefix: string[] = []): [string[], Schema][] {
  const s = deref(schema);
  const out: [string[], Schema][] = [];
  for (const [k, v] of Object.entries<Schema>(s.properties ?? {})) {
    out.push([[...prefix, k], v]);
    const d = deref(v);
    if (d.properties && prefix.length < 2) out.push(...slots(d, [...prefix, k]));
  }
  return out;
}
const setPath = (base: any, path: string[], value: unknown) => {
  const copy = structuredClone(base ?? {});
  let o = copy;
  for (const k of path.slice(0, -1)) o = o[k] = typeof o[k] === "object" && o[k] !== null && !Array.isArray(o[k]) ? o[k] : {};
  o[path.at(-1)!] = value;
  return copy;
};

interface Target {
  key: string;
  method: string;
  path: string;
  base: unknown; // a valid-shaped body (from the matrix), or undefined
  bodySchema?: Schema;
  query: { name: string; schema: Schema; required: boolean }[];
  documented: number[];
}
let targets: Target[] = [];

beforeAll(async () => {
  // Reactors and the dispute keeper act on chain history by themselves: off, so any change is the requests'.
  api = await startTestApi({ REACTORS_ENABLED: "false", KEEPER_INTERVAL_MS: "0" }, { indexer: "shared" });
  token = await signIn(api.url, privateKeyToAccount(generatePrivateKey()));
  doc = await (await fetch(`${api.url}/openapi.json`)).json();
  const routes = new Set<string>();
  for (const r of api.server.app.routes) if (r.method !== "ALL" && !r.path.startsWith("/v2/")) routes.add(`${r.method} ${r.path}`);
  const fx = fakeFixture();
  for (const key of routes) {
    const [method, path] = key.split(" ") as [string, string];
    const op = doc.paths[path.replace(/:(\w+)/g, "{$1}")]?.[method.toLowerCase()];
    const bodySchema = op?.requestBody?.content?.["application/json"]?.schema;
    const query = (op?.parameters ?? []).filter((p: any) => p.in === "query").map((p: any) => ({ name: p.name, schema: p.schema, required: !!p.required }));
    if (method === "GET" && query.length === 0) continue; // nothing to feed
    if (NOT_JSON.has(key)) continue;
    const spec = MATRIX[key];
    if (!spec) throw new Error(`${key} has no row in security-matrix.ts`);
    const req = spec.req(fx);
    const documented = Object.keys(op?.responses ?? {}).map(Number).filter((n) => n >= 400 && n < 500);
    targets.push({ key, method, path: req.path.split("?")[0]!, base: req.body === "SIGN_IN" ? { address: fx.users.poster.address, signature: "0x00" } : req.body, bodySchema, query, documented });
  }
});
afterAll(async () => {
  await api?.stop();
});

async function pool<T>(items: T[], fn: (t: T) => Promise<void>, width = 4) {
  const queue = [...items];
  await Promise.all(Array.from({ length: width }, async () => {
    for (let t = queue.shift(); t !== undefined; t = queue.shift()) await fn(t);
  }));
}

const allowed = (t: Target) => [...new Set([400, 413, 415, ...t.documented.filter((s) => s !== 401 && s !== 429)])];

describe("bad input on every JSON route", () => {
  it("the route table yields the JSON routes (bodies and query strings)", () => {
    const withBody = targets.filter((t) => t.method !== "GET");
    const withQuery = targets.filter((t) => t.query.length > 0);
    console.log(`bad input: ${withBody.length} body routes, ${withQuery.length} query routes`);
    expect(withBody.length).toBeGreaterThan(30);
    // Every body route with a JSON schema has a base body from the matrix.
    for (const t of withBody) if (t.bodySchema) expect(t.base, t.key).toBeDefined();
  });

  it("wrong types, missing fields, overlong strings, unicode, bad amounts and numbers: 4xx in the envelope, 0 x 500, no state change", async () => {
    const before = await snapshot();
    // Routes run 4 at a time (each route's property runs sequentially): the server, not the client, is the limit.
    await pool(targets.filter((t) => t.bodySchema), async (t) => {
      const s = deref(t.bodySchema);
      const fields = slots(s).map(([p, sch]) => [p, invalidValues(sch, p.at(-1)!)] as const).filter(([, a]) => a) as [string[], fc.Arbitrary<unknown>][];
      const required: string[] = s.required ?? [];
      const variants: fc.Arbitrary<unknown>[] = [
        // the whole body of the wrong type
        fc.oneof(fc.integer(), fc.string({ maxLength: 10 }), fc.constant(null), fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 }), fc.boolean()),
      ];
      if (fields.length) variants.push(fc.integer({ min: 0, max: fields.length - 1 }).chain((i) => fields[i]![1].map((v) => setPath(t.base, fields[i]![0], v))));
      if (required.length) variants.push(fc.constantFrom(...required).map((k) => { const b: any = structuredClone(t.base); delete b[k]; return b; }));
      if (s.additionalProperties === false) variants.push(fc.constantFrom("state", "poster", "__proto__", "constructor", "role", "premium").map((k) => ({ ...(t.base as object), [k]: "x" })));
      await fc.assert(
        fc.asyncProperty(fc.oneof(...variants), async (body) => {
          const res = await raw(t.method, t.path, JSON.stringify(body), { "Content-Type": "application/json" });
          return judge(`${t.key} ${JSON.stringify(body).slice(0, 120)}`, res, allowed(t)) || true;
        }),
        { numRuns: fields.length ? 25 : 6, seed: 9 },
      );
    });
    await pool(targets.filter((t) => t.query.length), async (t) => {
      const qs = t.query.map((q) => [q.name, invalidValues(q.schema, q.name, true)] as const).filter(([, a]) => a) as [string, fc.Arbitrary<unknown>][];
      if (!qs.length) return;
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 0, max: qs.length - 1 }).chain((i) => qs[i]![1].map((v) => [qs[i]![0], v] as const)), async ([name, v]) => {
          const value = typeof v === "string" ? v : JSON.stringify(v);
                // A lone surrogate has no UTF-8 form: send the bytes of an encoded surrogate (invalid UTF-8).
          const enc = encodeURIComponent(value.replace(/[\ud800-\udfff]/g, "\u0001")).replaceAll("%01", "%ED%A0%80");
          const base = t.query.filter((q) => q.required && q.name !== name).map((q) => `${q.name}=1`);
          const res = await raw("GET", `${t.path}?${[...base, `${name}=${enc}`].join("&")}`);
          // Past 16 KiB of URL, Node's HTTP parser answers 431 before any handler (no body to check).
          if (res.status === 431 && enc.length > 8_000) return true;
          return judge(`${t.key} ?${name}=${value.slice(0, 60)}`, res, allowed(t)) || true;
        }),
        { numRuns: 15, seed: 9 },
      );
    });
    const after = await snapshot();
    console.log(`bad input: ${sent} requests so far; answers ${JSON.stringify(Object.fromEntries(answers))}`);
    expect(problems).toEqual([]);
    expect(after).toEqual(before);
  });

  it("controls: valid Unicode (pairs, RTL, zero-width) and 31-deep metadata pass; /graphql still proxies its JSON", async () => {
    const name = "\u202eRTL \u200bzw 🙂 名前";
    const res = await raw("PATCH", "/users/me", JSON.stringify({ displayName: name }), { "Content-Type": "application/json" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.displayName).toBe(name.trim());
    const g = await raw("POST", "/graphql", JSON.stringify({ query: "{ __typename }" }), { "Content-Type": "application/json" });
    expect(g.status).toBe(200);
    expect(g.body.data.__typename).toBe("Query");
    // The depth guard sits just above the deepest legitimate body: 31 levels still reach the route.
    const deepOk = JSON.stringify({ title: "x" }).replace('"x"', '"x","metadata":' + '{"a":'.repeat(30) + "1" + "}".repeat(30));
    const d = await raw("PATCH", `/missions/${crypto.randomUUID()}`, deepOk, { "Content-Type": "application/json" });
    expect(d.status, JSON.stringify(d.body)).toBe(404);
  });

  it("lone surrogates, deep JSON, wrong content types, oversized and malformed bodies", async () => {
    const before = await snapshot();
    const deep = (n: number) => "[".repeat(n) + "]".repeat(n);
    const deepObj = (n: number) => '{"a":'.repeat(n) + "1" + "}".repeat(n);
    const bodies = targets.filter((t) => t.method !== "GET" && t.bodySchema);
    // One at a time: a 413 closes its connection, and parallel requests would race for that socket.
    await pool(bodies, async (t) => {
      const body = JSON.stringify(t.base ?? {});
      const cases: [string, string | ReadableStream, Record<string, string>, number[]][] = [
        ["deep array 10k", deep(10_000), { "Content-Type": "application/json" }, [400]],
        ["deep object 10k", deepObj(10_000), { "Content-Type": "application/json" }, [400]],
        ["malformed JSON", body.slice(0, -1), { "Content-Type": "application/json" }, [400]],
        ["text/plain", body, { "Content-Type": "text/plain" }, [415]],
        ["form", "a=1&b=2", { "Content-Type": "application/x-www-form-urlencoded" }, [415]],
        ["xml", "<a/>", { "Content-Type": "application/xml" }, [415]],
        ["no content type", body, {}, [415]],
        ["oversized 70 KiB", JSON.stringify({ ...(t.base as object), pad: "x".repeat(70_000) }), { "Content-Type": "application/json" }, [413]],
        ["oversized chunked 200 KiB", "CHUNKED", { "Content-Type": "application/json" }, [413]],
      ];
      for (const [p, sch] of slots(deref(t.bodySchema))) {
        const types = typesOf(sch);
        if (types.has("string") || types.has("any")) {
          for (const l of [LONE[0]!, LONE[3]!]) cases.push([`lone surrogate in ${p.join(".")}`, JSON.stringify(setPath(t.base, p, `ok${l}`)), { "Content-Type": "application/json" }, [400]]);
        }
        if (types.has("object") || types.has("any")) {
          const nested = JSON.stringify(setPath(t.base, p, "DEEP")).replace('"DEEP"', deepObj(5_000));
          cases.push([`deep value in ${p.join(".")}`, nested, { "Content-Type": "application/json" }, [400]]);
        }
      }
      for (const [name, b, headers, ok] of cases) {
        try {
          judge(`${t.key} [${name}]`, b === "CHUNKED" ? await chunked(t.method, t.path) : await raw(t.method, t.path, b, headers), ok);
        } catch (err) {
          problems.push(`${t.key} [${name}]: ${(err as Error).message} ${String((err as { cause?: unknown }).cause ?? "")}`);
        }
      }
    }, 1);
    const after = await snapshot();
    console.log(`bad input: ${sent} requests in total (${resent} resent after a closed socket); answers ${JSON.stringify(Object.fromEntries(answers))}`);
    expect(problems).toEqual([]);
    expect(after).toEqual(before);
    expect(answers.get(500) ?? 0).toBe(0);
  });
});
