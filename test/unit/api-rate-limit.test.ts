import { describe, expect, it } from "vitest";
import { memoryRateLimitStore, rateLimiter } from "../../api/services/rate-limit.service.ts";

describe("rateLimiter", () => {
  const tiers = { anonymous: 3, user: 5, premium: 10 };
  it("counts per key in clock-aligned minute windows and reports seconds to reset", async () => {
    let t = 120_000 + 15_000; // 15 s into a window
    const rl = rateLimiter(memoryRateLimitStore(), tiers, () => t);
    const ip = { ip: "1.2.3.4" };
    const d = [await rl.hit(ip), await rl.hit(ip), await rl.hit(ip), await rl.hit(ip)];
    expect(d.map((x) => x.allowed)).toEqual([true, true, true, false]);
    expect(d.map((x) => x.remaining)).toEqual([2, 1, 0, 0]);
    expect(d[0]!.resetSeconds).toBe(45);
    expect((await rl.hit({ ip: "5.6.7.8" })).allowed).toBe(true); // another client
    t = 180_000; // next window
    expect(await rl.hit(ip)).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 60 });
  });
  it("uses the user and premium tiers when authenticated", async () => {
    const rl = rateLimiter(memoryRateLimitStore(), tiers, () => 0);
    expect((await rl.hit({ ip: "x", userId: "u1" })).limit).toBe(5);
    expect((await rl.hit({ ip: "x", userId: "u2", premium: true })).limit).toBe(10);
    expect((await rl.hit({ ip: "x" })).limit).toBe(3);
  });
  it("peek does not count", async () => {
    const rl = rateLimiter(memoryRateLimitStore(), tiers, () => 0);
    await rl.peek({ ip: "p" });
    expect((await rl.hit({ ip: "p" })).remaining).toBe(2);
  });
});
