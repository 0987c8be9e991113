import { privateKeyToAccount } from "viem/accounts";
import { createSiweMessage } from "viem/siwe";
import { describe, expect, it } from "vitest";
import { siweProblem } from "../../api/services/siwe.ts";

const account = privateKeyToAccount(`0x${"ab".repeat(32)}`);
const now = new Date("2026-01-01T12:00:00Z");
const base = {
  address: account.address,
  domain: "api.example:3000",
  uri: "http://api.example:3000",
  chainId: 31337,
  nonce: "abcdef1234567890",
  version: "1" as const,
  issuedAt: new Date(now.getTime() - 1_000),
  expirationTime: new Date(now.getTime() + 300_000),
};
const expected = { address: account.address, domain: base.domain, uri: base.uri, chainId: 31337, nonce: base.nonce };
const problem = (over: Partial<typeof base> & { notBefore?: Date } = {}, exp = expected, at = now) =>
  siweProblem(createSiweMessage({ ...base, ...over }), exp, at);

describe("siweProblem", () => {
  it("accepts a message whose every field matches", () => {
    expect(problem()).toBeNull();
  });
  it.each([
    ["address", { address: privateKeyToAccount(`0x${"cd".repeat(32)}`).address }, /address/],
    ["domain", { domain: "evil.example" }, /domain/],
    ["uri", { uri: "http://evil.example" }, /uri/],
    ["chain id", { chainId: 1 }, /chain id/],
    ["nonce", { nonce: "zzzzzzzz12345678" }, /nonce/],
    ["issuedAt in the future", { issuedAt: new Date(now.getTime() + 3_600_000) }, /issuedAt/],
    ["expired", { expirationTime: new Date(now.getTime() - 1) }, /expired/],
    ["not yet valid", { notBefore: new Date(now.getTime() + 60_000) }, /not yet valid/],
  ])("rejects a wrong %s", (_name, over, reason) => {
    expect(problem(over as never)).toMatch(reason);
  });
  it("rejects a message without expiration time", () => {
    const text = createSiweMessage({ ...base, expirationTime: undefined });
    expect(siweProblem(text, expected, now)).toMatch(/expirationTime/);
  });
});
