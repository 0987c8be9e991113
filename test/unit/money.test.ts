import { describe, expect, it } from "vitest";
import { formatAmount, MoneyError, parseAmount, tryParseAmount, UINT64_MAX } from "../../domain/index.ts";

describe("parseAmount", () => {
  it.each([
    ["0", 0n],
    ["1", 1_000_000n],
    ["12.5", 12_500_000n],
    ["0.000001", 1n],
    ["100.123456", 100_123_456n],
    ["18446744073709.551615", UINT64_MAX],
  ])("%s -> %s base units", (input, units) => {
    expect(parseAmount(input)).toBe(units);
  });

  it.each([
    ["-1", "negative"],
    ["1e6", "exponent"],
    ["1E6", "exponent"],
    ["0.0000001", "6 decimal"],
    ["18446744073709.551616", "too large"],
    ["99999999999999999999", "too large"],
    ["", "decimal string"],
    [" 1", "decimal string"],
    ["1.", "decimal string"],
    [".5", "decimal string"],
    ["01", "decimal string"],
    ["+1", "decimal string"],
    ["0x10", "decimal string"],
    ["1,5", "decimal string"],
    ["NaN", "decimal string"],
    ["Infinity", "decimal string"],
  ])("rejects %j (%s)", (input, reason) => {
    expect(() => parseAmount(input)).toThrow(MoneyError);
    expect(() => parseAmount(input)).toThrow(new RegExp(reason));
  });

  it("tryParseAmount returns null instead of throwing", () => {
    expect(tryParseAmount("1.5")).toBe(1_500_000n);
    expect(tryParseAmount("abc")).toBeNull();
  });
});

describe("formatAmount", () => {
  it.each([
    [0n, "0.000000"],
    [1n, "0.000001"],
    [12_500_000n, "12.500000"],
    [UINT64_MAX, "18446744073709.551615"],
    [10n ** 30n, "1000000000000000000000000.000000"],
  ])("%s -> %s", (units, text) => {
    expect(formatAmount(units)).toBe(text);
  });

  it("rejects negatives", () => {
    expect(() => formatAmount(-1n)).toThrow(MoneyError);
  });

  it("round-trips exactly over a sweep of values", () => {
    let x = 1n;
    for (let i = 0; i < 2000; i++) {
      x = (x * 6364136223846793005n + 1442695040888963407n) % (UINT64_MAX + 1n);
      expect(parseAmount(formatAmount(x))).toBe(x);
    }
  });
});
