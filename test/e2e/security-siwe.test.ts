// SIWE and JWT: negative sign-in cases and hostile tokens, beyond test/e2e/api-auth.test.ts
// (which covers replay, 50 parallel verifies, another wallet's signature, a forged message, an expired
// nonce, tampered/alg-none/wrong iss/aud/expired tokens). Every case here must be refused with a
// clear code, and no case may leave a usable nonce or a token behind.
//
// How the cases are built: the server signs nothing and trusts only the message text it stored with
// the nonce (`api.auth_nonces`). So a message with a wrong field can reach `/auth/verify` only if a
// message with that field was stored: a second API copy with another SIWE domain, a misconfigured
// issuer, a database row written by something else. The tests store such rows directly (the only
// fixture that bypasses the API) and check the verifier's second line of defence refuses them.
import { SignJWT, generateKeyPair, exportSPKI } from "jose";
import { type Address, type Hex, getAddress, hexToBigInt, numberToHex, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount, type PrivateKeyAccount } from "viem/accounts";
import { createSiweMessage, generateSiweNonce } from "viem/siwe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, signIn, startTestApi, type TestApi } from "./api-helpers.ts";
import { inject } from "./lane.ts";

let api: TestApi;
let domain: string;
let uri: string;
const chainId = () => inject("deployment").chainId;
const SECRET = "e2e-secret-e2e-secret-e2e-secret-0123456789";
const ISS = "mission-marketplace-api";
const AUD = "mission-marketplace";

beforeAll(async () => {
  api = await startTestApi();
  const m = await call(api.url, "POST", "/auth/message", { body: { address: privateKeyToAccount(generatePrivateKey()).address } });
  domain = /^(\S+) wants you to sign in/.exec(m.body.message)![1]!;
  uri = /\nURI: (\S+)/.exec(m.body.message)![1]!;
});
afterAll(async () => {
  await api?.stop();
});

const refused = (res: { status: number; body: any }, status = 401, code = "UNAUTHORIZED") => {
  expect(res.status, JSON.stringify(res.body)).toBe(status);
  expect(res.body.error.code).toBe(code);
  expect(res.body.error.message.length).toBeGreaterThan(5);
  expect(res.body.token).toBeUndefined();
};
const verify = (address: string, signature: string) =>
  call(api.url, "POST", "/auth/verify", { body: { address, signature } });
const fresh = () => privateKeyToAccount(generatePrivateKey());

/** Stores a sign-in message as if the server had issued it (fields overridable), returns its nonce. */
async function storeMessage(
  account: PrivateKeyAccount,
  o: Partial<Parameters<typeof createSiweMessage>[0]> & { rowDomain?: string; text?: string; rowNonce?: string } = {},
) {
  const now = Date.now();
  const nonce = o.nonce ?? generateSiweNonce();
  const message =
    o.text ??
    createSiweMessage({
      address: account.address,
      chainId: chainId(),
      domain,
      uri,
      nonce,
      version: "1",
      issuedAt: new Date(now),
      expirationTime: new Date(now + 5 * 60_000),
      statement: "Sign in to the mission marketplace.",
      ...o,
    } as Parameters<typeof createSiweMessage>[0]);
  await api.server.deps.repos.nonces.insert({
    nonce: o.rowNonce ?? nonce,
    address: account.address.toLowerCase(),
    domain: o.rowDomain ?? domain,
    message,
    issuedAt: new Date(now),
    expiresAt: new Date(now + 5 * 60_000),
  });
  return { nonce: o.rowNonce ?? nonce, message };
}
const consumed = async (nonce: string) =>
  (await api.server.deps.database.pool.query("SELECT consumed_at FROM api.auth_nonces WHERE nonce = $1", [nonce])).rows[0]
    ?.consumed_at != null;

/** A stored message with one bad field, correctly signed by the address's key: must be refused. */
async function expectStoredRefused(o: Parameters<typeof storeMessage>[1], reason: RegExp) {
  const account = fresh();
  const { nonce, message } = await storeMessage(account, o);
  const res = await verify(account.address, await account.signMessage({ message }));
  refused(res);
  expect(res.body.error.message).toMatch(reason);
  expect(await consumed(nonce)).toBe(false);
  expect(await api.server.deps.repos.users.findByAddress(account.address)).toBeNull();
}

const cases: string[] = [];
const negative = (name: string, fn: () => Promise<void>) => {
  cases.push(name);
  it(name, fn);
};

describe("SIWE: messages with a wrong field are refused even when stored and correctly signed", () => {
  negative("wrong domain in the text", () => expectStoredRefused({ domain: "evil.example" }, /domain/));
  negative("wrong URI", () => expectStoredRefused({ uri: "https://evil.example/login" }, /uri/));
  negative("wrong chain id", () => expectStoredRefused({ chainId: 1 }, /chain/));
  negative("expired (expirationTime in the past)", () =>
    expectStoredRefused({ issuedAt: new Date(Date.now() - 120_000), expirationTime: new Date(Date.now() - 60_000) }, /expired/));
  negative("not yet valid (notBefore in the future)", () =>
    expectStoredRefused({ notBefore: new Date(Date.now() + 3_600_000) }, /not yet valid/));
  negative("issuedAt far in the future", () =>
    expectStoredRefused({ issuedAt: new Date(Date.now() + 86_400_000), expirationTime: new Date(Date.now() + 2 * 86_400_000) }, /issuedAt/));
  negative("no expirationTime", () => expectStoredRefused({ expirationTime: undefined }, /expirationTime/));
  negative("nonce in the text differs from the issued nonce", () =>
    expectStoredRefused({ nonce: generateSiweNonce(), rowNonce: generateSiweNonce() }, /nonce/));
  negative("text names another address", async () => {
    const other = fresh();
    await expectStoredRefused({ address: other.address }, /address/);
  });
  negative("wrong version", async () => {
    const account = fresh();
    const base = createSiweMessage({
      address: account.address, chainId: chainId(), domain, uri, nonce: generateSiweNonce(), version: "1",
      issuedAt: new Date(), expirationTime: new Date(Date.now() + 300_000),
    });
    await expectStoredRefused({ text: base.replace("Version: 1", "Version: 2"), nonce: /Nonce: (\S+)/.exec(base)![1] }, /version|not valid/);
  });
  negative("malformed message text (not EIP-4361)", () =>
    expectStoredRefused({ text: "hello\nthis is not a sign-in message\n\u202e\u200b" }, /rejected/));
  negative("overlong stored message (64 KiB statement)", () =>
    expectStoredRefused({ statement: "a".repeat(65_536) }, /too long/));
});

describe("SIWE: client-side forgeries", () => {
  negative("a message issued for another domain by a second API copy (shared database)", async () => {
    const other = await startTestApi({ SIWE_DOMAIN: "other.example", SIWE_URI: "https://other.example" });
    try {
      const account = fresh();
      const m = await call(other.url, "POST", "/auth/message", { body: { address: account.address } });
      expect(m.body.message).toMatch(/^other\.example wants you/);
      const signature = await account.signMessage({ message: m.body.message });
      refused(await verify(account.address, signature));
      // The copy that issued it still accepts it: the refusal above is about the domain, not the key.
      expect((await call(other.url, "POST", "/auth/verify", { body: { address: account.address, signature } })).status).toBe(200);
    } finally {
      await other.stop();
    }
  });

  negative("signature over a different message (issued text with the URI changed)", async () => {
    const account = fresh();
    const m = await call(api.url, "POST", "/auth/message", { body: { address: account.address } });
    const edited = (m.body.message as string).replace(`URI: ${uri}`, "URI: https://evil.example");
    refused(await verify(account.address, await account.signMessage({ message: edited })));
    // The genuine message is still usable: a failed attempt does not burn the nonce.
    expect((await verify(account.address, await account.signMessage({ message: m.body.message }))).status).toBe(200);
  });

  negative("reused nonce: a consumed message re-signed after a new one was requested", async () => {
    const account = fresh();
    const first = await call(api.url, "POST", "/auth/message", { body: { address: account.address } });
    const sig1 = await account.signMessage({ message: first.body.message });
    expect((await verify(account.address, sig1)).status).toBe(200);
    await call(api.url, "POST", "/auth/message", { body: { address: account.address } }); // a live one exists now
    refused(await verify(account.address, sig1));
  });

  negative("another address's nonce: B signs A's message and claims to be B", async () => {
    const a = fresh(), b = fresh();
    const m = await call(api.url, "POST", "/auth/message", { body: { address: a.address } });
    await call(api.url, "POST", "/auth/message", { body: { address: b.address } }); // B has its own live nonce
    refused(await verify(b.address, await b.signMessage({ message: m.body.message })));
    refused(await verify(a.address, await b.signMessage({ message: m.body.message })));
  });

  negative("unknown nonce: issued text with the nonce replaced", async () => {
    const account = fresh();
    const m = await call(api.url, "POST", "/auth/message", { body: { address: account.address } });
    const edited = (m.body.message as string).replace(/Nonce: \S+/, `Nonce: ${generateSiweNonce()}`);
    refused(await verify(account.address, await account.signMessage({ message: edited })));
  });

  negative("overlong client message (100 KiB) signed by the right key", async () => {
    const account = fresh();
    const m = await call(api.url, "POST", "/auth/message", { body: { address: account.address } });
    refused(await verify(account.address, await account.signMessage({ message: m.body.message + "x".repeat(100_000) })));
  });

  negative("overlong signature and address are 400 with the field", async () => {
    const account = fresh();
    const long = await verify(account.address, `0x${"ab".repeat(20_000)}`);
    refused(long, 400, "VALIDATION_ERROR");
    expect(long.body.error.details.map((d: any) => d.field)).toContain("body.signature");
    const addr = await call(api.url, "POST", "/auth/message", { body: { address: `0x${"a".repeat(10_000)}` } });
    refused(addr, 400, "VALIDATION_ERROR");
    expect(addr.body.error.details[0].field).toBe("body.address");
  });

  negative("empty and garbage signatures", async () => {
    const account = fresh();
    await call(api.url, "POST", "/auth/message", { body: { address: account.address } });
    const empty = await verify(account.address, "0x");
    refused(empty, 400, "VALIDATION_ERROR");
    expect(empty.body.error.details[0].field).toBe("body.signature");
    refused(await verify(account.address, "0xdeadbeef"));
    refused(await verify(account.address, `0x${"00".repeat(65)}`));
    refused(await verify(account.address, `0x${"ff".repeat(65)}`));
    refused(await verify(account.address, `0x${"11".repeat(64)}1b`));
  });

  negative("the address's case does not matter, a wrong address does", async () => {
    const account = fresh();
    const m = await call(api.url, "POST", "/auth/message", { body: { address: account.address.toLowerCase() } });
    const sig = await account.signMessage({ message: m.body.message });
    refused(await verify(fresh().address, sig));
    // Same account, other spelling: one identity (addresses are compared checksummed).
    expect((await verify(account.address.toUpperCase().replace("0X", "0x"), sig)).status).toBe(200);
  });

  negative("malleated signature (s -> n - s) after the original was used, and 50 mixed in parallel", async () => {
    const n = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
    const malleate = (sig: Hex): Hex => {
      const r = sig.slice(2, 66), s = hexToBigInt(`0x${sig.slice(66, 130)}`), v = parseInt(sig.slice(130, 132), 16);
      return `0x${r}${numberToHex(n - s, { size: 32 }).slice(2)}${(v === 27 ? 28 : 27).toString(16)}` as Hex;
    };
    const account = fresh();
    const m = await call(api.url, "POST", "/auth/message", { body: { address: account.address } });
    const sig = await account.signMessage({ message: m.body.message });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => verify(account.address, i % 2 ? malleate(sig) : sig)),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) refused(r);
    refused(await verify(account.address, malleate(sig)));
  });
});

describe("SIWE: contract wallets (EIP-1271)", () => {
  // Runtime code that answers every isValidSignature call with 32 bytes: zero (says no) or the magic value.
  const SAYS_NO = "0x600060005260206000f3";
  const SAYS_YES = "0x631626ba7e60e01b60005260206000f3";
  const wallet = async (code: Hex) => {
    const address = getAddress(toHex(crypto.getRandomValues(new Uint8Array(20)))) as Address;
    await fetch(inject("rpcUrl"), {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "anvil_setCode", params: [address, code] }),
    });
    return address;
  };
  negative("a contract wallet that says no is refused", async () => {
    const address = await wallet(SAYS_NO);
    await call(api.url, "POST", "/auth/message", { body: { address } });
    refused(await verify(address, `0x${"12".repeat(65)}`));
    expect(await api.server.deps.repos.users.findByAddress(address)).toBeNull();
  });
  it("a contract wallet that says yes signs in (the EIP-1271 path works, so the refusal above is meaningful)", async () => {
    const address = await wallet(SAYS_YES);
    await call(api.url, "POST", "/auth/message", { body: { address } });
    expect((await verify(address, `0x${"12".repeat(65)}`)).status).toBe(200);
  });
});

describe("JWT: hostile tokens are always 401", () => {
  const key = new TextEncoder().encode(SECRET);
  const enc = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  let user: { id: string; evmAddress: string };
  let other: { id: string; evmAddress: string };
  // Routes that need no indexer (this file runs without one): personal and public.
  const me = (token: string) => call(api.url, "GET", "/notifications/unread-count", { token });
  const pub = (token: string) => call(api.url, "GET", "/config", { token });
  const sign = (claims: Record<string, unknown>, o: { alg?: string; exp?: number | null; k?: Uint8Array } = {}) => {
    let j = new SignJWT(claims).setProtectedHeader({ alg: o.alg ?? "HS256", typ: "JWT" }).setIssuedAt();
    if (o.exp !== null) j = j.setExpirationTime(o.exp ?? Math.floor(Date.now() / 1000) + 600);
    return j.sign(o.k ?? key);
  };
  const good = () => ({ sub: user.id, addr: user.evmAddress, iss: ISS, aud: AUD });

  beforeAll(async () => {
    const a = fresh(), b = fresh();
    await signIn(api.url, a);
    await signIn(api.url, b);
    user = (await api.server.deps.repos.users.findByAddress(a.address))!;
    other = (await api.server.deps.repos.users.findByAddress(b.address))!;
  });

  const jwtCases: [string, () => Promise<string>][] = [
    ["control: a well-formed token passes", () => sign(good())],
    ["alg none, empty signature", async () => `${enc({ alg: "none", typ: "JWT" })}.${enc({ ...good(), iat: 1, exp: 9e9 })}.`],
    ["alg NONE, signature of the HS256 token kept", async () => {
      const t = await sign(good());
      return `${enc({ alg: "NONE" })}.${t.split(".")[1]}.${t.split(".")[2]}`;
    }],
    ["HS512 with the right secret (algorithm not allowed)", () => sign(good(), { alg: "HS512" })],
    ["RS256 header over an HMAC with the secret (algorithm confusion)", async () => {
      const t = await sign(good());
      return `${enc({ alg: "RS256", typ: "JWT" })}.${t.split(".")[1]}.${t.split(".")[2]}`;
    }],
    ["HS256 keyed with a public key PEM (algorithm confusion)", async () => {
      const { publicKey } = await generateKeyPair("RS256");
      return sign(good(), { k: new TextEncoder().encode(await exportSPKI(publicKey)) });
    }],
    ["a real RS256 token", async () => {
      const { privateKey } = await generateKeyPair("RS256");
      return new SignJWT(good()).setProtectedHeader({ alg: "RS256" }).setIssuedAt().setExpirationTime("10m").sign(privateKey);
    }],
    ["expired one second ago", () => sign(good(), { exp: Math.floor(Date.now() / 1000) - 1 })],
    ["no exp claim", () => sign(good(), { exp: null })],
    ["wrong audience", () => sign({ ...good(), aud: "another-service" })],
    ["audience list without ours", () => sign({ ...good(), aud: ["a", "b"] })],
    ["wrong issuer", () => sign({ ...good(), iss: "evil" })],
    ["missing sub", () => sign({ addr: user.evmAddress, iss: ISS, aud: AUD })],
    ["missing addr", () => sign({ sub: user.id, iss: ISS, aud: AUD })],
    ["sub of one user, addr of another", () => sign({ ...good(), addr: other.evmAddress })],
    ["sub of an unknown user", () => sign({ ...good(), sub: "00000000-0000-4000-8000-000000000000" })],
    ["sub that is not a uuid", () => sign({ ...good(), sub: "' OR 1=1 --" })],
    ["addr that is not an address", () => sign({ ...good(), addr: "not-an-address" })],
    ["nbf in the future", () => sign({ ...good(), nbf: Math.floor(Date.now() / 1000) + 3600 })],
    ["signed with an empty key", () => sign(good(), { k: new Uint8Array(32) })],
    ["payload swapped to another user, signature kept", async () => {
      const t = await sign(good());
      return `${t.split(".")[0]}.${enc({ ...good(), sub: other.id, addr: other.evmAddress, iat: 1, exp: 9e9 })}.${t.split(".")[2]}`;
    }],
    ["truncated signature", async () => (await sign(good())).slice(0, -5)],
    ["not a JWT at all", async () => "abc.def"],
  ];

  it(`${jwtCases.length - 1} hostile tokens are 401 UNAUTHORIZED on a personal and a public route`, async () => {
    for (const [name, make] of jwtCases) {
      const token = await make();
      const [a, b] = await Promise.all([me(token), pub(token)]);
      if (name.startsWith("control")) {
        expect(a.status, name).toBe(200);
        expect(b.status, name).toBe(200);
        continue;
      }
      expect(a.status, `${name}: ${JSON.stringify(a.body)}`).toBe(401);
      expect(a.body.error.code, name).toBe("UNAUTHORIZED");
      expect(b.status, `${name} (public route)`).toBe(401);
    }
  });

  it("malformed Authorization headers are 401, and a lower-case scheme is accepted", async () => {
    const token = await sign(good());
    for (const h of [`Bearer ${token} ${token}`, `Bearer`, `Token ${token}`, `Bearer ${token},x`, `Basic ${token}`]) {
      const res = await call(api.url, "GET", "/notifications/unread-count", { headers: { Authorization: h } });
      expect(res.status, h).toBe(401);
      expect(res.body.error.code).toBe("UNAUTHORIZED");
    }
    expect((await call(api.url, "GET", "/notifications/unread-count", { headers: { Authorization: `bearer ${token}` } })).status).toBe(200);
  });

  it("a token of a user whose vault was deleted stops at once; a new sign-in gets a blank profile (decisions: session epoch)", async () => {
    const a = fresh();
    const token = await signIn(api.url, a);
    const patch = await call(api.url, "PATCH", "/vault/permissions", { token, body: { locationSharing: { precision: "exact" } } });
    expect(patch.status, JSON.stringify(patch.body)).toBe(200);
    const del = await call(api.url, "DELETE", "/vault/delete", { token, body: { confirmation: "DELETE_ALL_MY_DATA" } });
    expect(del.status, JSON.stringify(del.body)).toBe(200);
    const stale = await call(api.url, "GET", "/vault/permissions", { token });
    expect(stale.status).toBe(401);
    expect(stale.body.error.code).toBe("UNAUTHORIZED");
    const again = await signIn(api.url, a);
    const after = await call(api.url, "GET", "/vault/permissions", { token: again });
    expect(after.status).toBe(200);
    expect(after.body.locationSharing.precision).toBe("neighborhood");
  });
});

afterAll(() => {
  console.log(`security-siwe: ${cases.length} negative sign-in cases`);
});
