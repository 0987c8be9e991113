// Governance through the public interface: one fresh wallet raised through the real XP sources to
// level 15 (refused: below the gate) and then to 16 (allowed), proposals validated, votes signed with
// EIP-712 by the voter's wallet and checked by a third party from the response alone, one vote per
// wallet (a second replaces the first), no vote after endsAt, and signatures that are not the caller's.
import { privateKeyToAccount, generatePrivateKey, type PrivateKeyAccount } from "viem/accounts";
import { verifyTypedData, type Hex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { chainEnv } from "./indexer-helpers.ts";
import { raiseToLevel } from "./levels.ts";

let api: TestApi;
let chain: ReturnType<typeof chainEnv>;
let elder: PrivateKeyAccount; // raised to 15, then 16
let elderToken: string;
let novice: PrivateKeyAccount; // level 1
let noviceToken: string;
const NO_PROPOSAL = "00000000-0000-4000-8000-000000000000";
const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();
const proposal = (over: Record<string, unknown> = {}) => ({
  title: "Lower the guild fee cap",
  body: "Cap guild fees at 8 % instead of 10 %.",
  choices: ["yes", "no", "abstain"],
  endsAt: inAnHour(),
  ...over,
});

/** The typed data a client builds from a proposal's view alone. */
const signVote = (who: PrivateKeyAccount, p: { id: string; eip712: any }, choice: string, domain = p.eip712.domain) =>
  who.signTypedData({ domain, types: p.eip712.types, primaryType: p.eip712.primaryType, message: { proposalId: p.id, choice } });

const db = () => api.server.deps.database.pool;
const views = () => api.server.env.CHAIN_SCHEMA;
const proposalCount = async () => Number((await db().query(`SELECT count(*) AS n FROM api.governance_proposals`)).rows[0].n);

beforeAll(async () => {
  chain = chainEnv();
  // No reactors here: their achievement mints share account 0 (the relayer) with raiseToLevel's
  // builder-score call, and a nonce race between the two is not what this file tests.
  api = await startTestApi({ REACTORS_ENABLED: "false" }, { indexer: "shared" });
  chain.setIndexer(api.follows);
  elder = await chain.freshUser();
  novice = privateKeyToAccount(generatePrivateKey());
  [elderToken, noviceToken] = [await signIn(api.url, elder), await signIn(api.url, novice)];
});
afterAll(async () => {
  await api?.stop();
});

describe("the level-16 gate", () => {
  it("refuses proposing and voting at level 15 with 403 INELIGIBLE (field level), storing nothing", async () => {
    const xp = await raiseToLevel(chain, db(), views(), elder, 15);
    const me = await call(api.url, "GET", "/xp/me", { token: elderToken });
    expect(me.body.level, `${xp} XP`).toBe(15);
    const before = await proposalCount();
    const proposed = await call(api.url, "POST", "/governance/proposals", { token: elderToken, body: proposal() });
    expect(proposed.status, JSON.stringify(proposed.body)).toBe(403);
    expect(proposed.body.error.code).toBe("INELIGIBLE");
    expect(proposed.body.error.details).toEqual([{ field: "level", reason: expect.stringContaining("level 16") }]);
    const voted = await call(api.url, "POST", `/governance/proposals/${NO_PROPOSAL}/votes`, {
      token: elderToken,
      body: { choice: "yes", signature: `0x${"11".repeat(65)}` },
    });
    expect(voted.status).toBe(403);
    expect(voted.body.error.details[0].field).toBe("level");
    expect(await proposalCount()).toBe(before);
  });

  it("allows both at level 16 (same wallet, raised by further completed missions)", async () => {
    await raiseToLevel(chain, db(), views(), elder, 16);
    expect((await call(api.url, "GET", "/xp/me", { token: elderToken })).body.level).toBe(16);
    const created = await call(api.url, "POST", "/governance/proposals", { token: elderToken, body: proposal() });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({ proposer: elder.address.toLowerCase(), status: "open", totalVotes: 0, votes: [] });
    expect(created.body.tally).toEqual([{ choice: "yes", votes: 0 }, { choice: "no", votes: 0 }, { choice: "abstain", votes: 0 }]);
    const sig = await signVote(elder, created.body, "yes");
    const voted = await call(api.url, "POST", `/governance/proposals/${created.body.id}/votes`, { token: elderToken, body: { choice: "yes", signature: sig } });
    expect(voted.status, JSON.stringify(voted.body)).toBe(201);
    expect(voted.body).toMatchObject({ voter: elder.address.toLowerCase(), choice: "yes", replaced: false });
    // A level-1 wallet may read it, not vote on it.
    const low = await call(api.url, "POST", `/governance/proposals/${created.body.id}/votes`, {
      token: noviceToken, body: { choice: "no", signature: await signVote(novice, created.body, "no") },
    });
    expect(low.status).toBe(403);
    expect(low.body.error.code).toBe("INELIGIBLE");
  }, 240_000);
});

describe("proposals and votes (level 16)", () => {
  it("refuses bad proposals with 400 naming the field, storing nothing", async () => {
    const before = await proposalCount();
    const cases: [Record<string, unknown>, string][] = [
      [{ choices: ["only"] }, "body.choices"],
      [{ choices: Array.from({ length: 11 }, (_, i) => `c${i}`) }, "body.choices"],
      [{ choices: ["yes", "yes"] }, "body.choices"],
      [{ choices: ["yes", ""] }, "body.choices.1"],
      [{ title: "  " }, "body.title"],
      [{ title: "x".repeat(201) }, "body.title"],
      [{ body: "" }, "body.body"],
      [{ endsAt: "tomorrow" }, "body.endsAt"],
      [{ endsAt: new Date(Date.now() - 60_000).toISOString() }, "body.endsAt"],
      [{ endsAt: new Date(Date.now() + 400 * 86_400_000).toISOString() }, "body.endsAt"],
    ];
    for (const [over, field] of cases) {
      const res = await call(api.url, "POST", "/governance/proposals", { token: elderToken, body: proposal(over) });
      expect(res.status, JSON.stringify(over)).toBe(400);
      expect(res.body.error.code).toBe("VALIDATION_ERROR");
      expect(res.body.error.details.map((d: { field: string }) => d.field), JSON.stringify(over)).toContain(field);
    }
    expect(await proposalCount()).toBe(before);
  });

  it("a vote verifies with viem's verifyTypedData from the GET response alone; a second vote replaces the first", async () => {
    const p = (await call(api.url, "POST", "/governance/proposals", { token: elderToken, body: proposal({ choices: ["A", "B"] }) })).body;
    const first = await call(api.url, "POST", `/governance/proposals/${p.id}/votes`, { token: elderToken, body: { choice: "A", signature: await signVote(elder, p, "A") } });
    expect(first.status).toBe(201);
    const second = await call(api.url, "POST", `/governance/proposals/${p.id}/votes`, { token: elderToken, body: { choice: "B", signature: await signVote(elder, p, "B") } });
    expect(second.status).toBe(201);
    expect(second.body.replaced).toBe(true);

    const got = await call(api.url, "GET", `/governance/proposals/${p.id}`);
    expect(got.status).toBe(200);
    expect(got.body.tally).toEqual([{ choice: "A", votes: 0 }, { choice: "B", votes: 1 }]);
    expect(got.body.totalVotes).toBe(1);
    expect(got.body.votes).toHaveLength(1);
    const { eip712 } = got.body;
    expect(eip712.domain).toEqual({ name: expect.any(String), version: "1", chainId: chain.deployment.chainId });
    for (const v of got.body.votes) {
      const check = (choice: string) =>
        verifyTypedData({ address: v.voter, domain: eip712.domain, types: eip712.types, primaryType: eip712.primaryType, message: { proposalId: got.body.id, choice }, signature: v.signature as Hex });
      expect(await check(v.choice)).toBe(true);
      expect(v.voter).toBe(elder.address.toLowerCase());
      expect(v.choice).toBe("B");
      expect(Date.parse(v.votedAt)).not.toBeNaN();
      // The same check fails for any other choice: the signature binds the choice.
      expect(await check("A")).toBe(false);
    }
    // The list carries the same tally and votes.
    const listed = (await call(api.url, "GET", "/governance/proposals?limit=100")).body.find((x: { id: string }) => x.id === p.id);
    expect(listed.tally).toEqual(got.body.tally);
    expect(listed.votes).toEqual(got.body.votes);
  });

  it("refuses a signature that is not the caller's over { proposalId, choice }: 400 with the reason, vote unchanged", async () => {
    const p = (await call(api.url, "POST", "/governance/proposals", { token: elderToken, body: proposal({ choices: ["up", "down"] }) })).body;
    await call(api.url, "POST", `/governance/proposals/${p.id}/votes`, { token: elderToken, body: { choice: "up", signature: await signVote(elder, p, "up") } });
    const other = privateKeyToAccount(generatePrivateKey());
    const bad: [string, Hex | string, string][] = [
      ["another wallet's signature", await signVote(other, p, "down"), "INVALID_SIGNATURE"],
      ["signed for another choice", await signVote(elder, p, "up"), "INVALID_SIGNATURE"],
      ["signed under another chain id", await signVote(elder, p, "down", { ...p.eip712.domain, chainId: 1 }), "INVALID_SIGNATURE"],
      ["signed for another proposal", await signVote(elder, { ...p, id: NO_PROPOSAL }, "down"), "INVALID_SIGNATURE"],
      ["not a signature", "0x1234", "VALIDATION_ERROR"],
    ];
    for (const [what, signature, code] of bad) {
      const res = await call(api.url, "POST", `/governance/proposals/${p.id}/votes`, { token: elderToken, body: { choice: "down", signature } });
      expect(res.status, what).toBe(400);
      expect(res.body.error.code, what).toBe(code);
      expect(res.body.error.details[0].field, what).toBe("body.signature");
    }
    const wrongChoice = await call(api.url, "POST", `/governance/proposals/${p.id}/votes`, { token: elderToken, body: { choice: "sideways", signature: await signVote(elder, p, "sideways") } });
    expect(wrongChoice.status).toBe(400);
    expect(wrongChoice.body.error.details[0].field).toBe("body.choice");
    const got = (await call(api.url, "GET", `/governance/proposals/${p.id}`)).body;
    expect(got.votes.map((v: { choice: string }) => v.choice)).toEqual(["up"]);
  });

  it("after endsAt a vote (or a replacement) is 409 PROPOSAL_CLOSED and the stored vote stays", async () => {
    const endsAt = new Date(Date.now() + 2_500).toISOString();
    const p = (await call(api.url, "POST", "/governance/proposals", { token: elderToken, body: proposal({ endsAt }) })).body;
    const ok = await call(api.url, "POST", `/governance/proposals/${p.id}/votes`, { token: elderToken, body: { choice: "no", signature: await signVote(elder, p, "no") } });
    expect(ok.status).toBe(201);
    await new Promise((r) => setTimeout(r, Date.parse(endsAt) - Date.now() + 200));
    const late = await call(api.url, "POST", `/governance/proposals/${p.id}/votes`, { token: elderToken, body: { choice: "yes", signature: await signVote(elder, p, "yes") } });
    expect(late.status).toBe(409);
    expect(late.body.error.code).toBe("PROPOSAL_CLOSED");
    const got = (await call(api.url, "GET", `/governance/proposals/${p.id}`)).body;
    expect(got.status).toBe("closed");
    expect(got.votes.map((v: { choice: string }) => v.choice)).toEqual(["no"]);
  });

  it("an unknown or malformed proposal id: 404 PROPOSAL_NOT_FOUND / 400", async () => {
    expect((await call(api.url, "GET", `/governance/proposals/${NO_PROPOSAL}`)).body.error.code).toBe("PROPOSAL_NOT_FOUND");
    const v = await call(api.url, "POST", `/governance/proposals/${NO_PROPOSAL}/votes`, { token: elderToken, body: { choice: "yes", signature: `0x${"11".repeat(65)}` } });
    expect(v.status).toBe(404);
    expect((await call(api.url, "GET", "/governance/proposals/not-a-uuid")).status).toBe(400);
  });
});
