// The verified-token memo of api/services/auth.service.ts: a token checked once is not HMAC-checked
// again, but its expiry, its exact text and its session epoch still decide every request.
import { SignJWT } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { authService } from "../../api/services/auth.service.ts";
import type { UserRow } from "../../api/repositories/users.repository.ts";

const SECRET = "unit-test-secret-0123456789abcdef0123";
const config = { jwtSecret: SECRET, issuer: "iss.test", audience: "aud.test", domain: "d.test", uri: "http://d.test", chainId: 31337, nonceTtlSeconds: 300, liveMessagesMax: 5 };
const address = "0x1111111111111111111111111111111111111111";
const user = { id: "0b6f1c1e-2a3b-4c5d-8e9f-0a1b2c3d4e5f", evmAddress: address, sessionEpoch: 0 } as UserRow;

function service(row: { current: UserRow }) {
  const users = { findById: async (id: string) => (id === row.current.id ? row.current : null) };
  return authService({ config, users: users as never, nonces: {} as never, publicClient: {} as never, logger: { warn() {} } as never, issuance: {} as never });
}

const token = (expSeconds: number) =>
  new SignJWT({ addr: address, sev: 0 })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(user.id)
    .setIssuer(config.issuer)
    .setAudience(config.audience)
    .setIssuedAt()
    .setExpirationTime(expSeconds)
    .sign(new TextEncoder().encode(SECRET));

afterEach(() => vi.useRealTimers());

describe("verified-token memo", () => {
  it("refuses a remembered token once it has expired", async () => {
    vi.useFakeTimers({ now: new Date("2026-06-01T00:00:00Z"), toFake: ["Date"] });
    const auth = service({ current: user });
    const t = await token(Math.floor(Date.now() / 1000) + 10);
    expect((await auth.authenticate(t)).user.id).toBe(user.id);
    expect((await auth.authenticate(t)).user.id).toBe(user.id); // from the memo
    vi.setSystemTime(new Date("2026-06-01T00:00:11Z"));
    await expect(auth.authenticate(t)).rejects.toThrow("Token expired");
    await expect(auth.authenticate(t)).rejects.toThrow("Token expired"); // checked again, not remembered
  });

  it("checks every other text: a remembered token's altered copy is refused", async () => {
    const auth = service({ current: user });
    const t = await token(Math.floor(Date.now() / 1000) + 600);
    await auth.authenticate(t);
    // The signature's FIRST character: all six of its bits are signature bits (the last character of a
    // 32-byte base64url signature carries two padding bits, so changing it may decode to the same bytes).
    const at = t.lastIndexOf(".") + 1;
    const altered = t.slice(0, at) + (t[at] === "A" ? "B" : "A") + t.slice(at + 1);
    await expect(auth.authenticate(altered)).rejects.toThrow("Invalid token");
  });

  it("still refuses a remembered token of a signed-out session", async () => {
    const row = { current: user };
    const auth = service(row);
    const t = await token(Math.floor(Date.now() / 1000) + 600);
    await auth.authenticate(t);
    row.current = { ...user, sessionEpoch: 1 };
    await expect(auth.authenticate(t)).rejects.toThrow("Token revoked");
  });
});
