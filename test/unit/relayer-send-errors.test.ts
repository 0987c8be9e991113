// How the relayer reads a node's refusal of eth_sendRawTransaction (api/services/relayer/common.ts): "our
// bytes are already there" is success, "the nonce is used" triggers a re-sync, "fee cap below the base
// fee" leaves the tx to the replacement (as geth's queued case), anything else fails.
import { describe, expect, it } from "vitest";
import { sendErrorKind } from "../../api/services/relayer/common.ts";

describe("sendErrorKind", () => {
  it.each([
    ["already known", "known"],
    ["known transaction: 0xabc", "known"],
    ["Transaction already imported", "known"],
    ["transaction already exists in pool", "known"],
    ["nonce too low", "nonce-taken"],
    ["Nonce too low. Expected nonce to be 7 but got 5.", "nonce-taken"],
    ["replacement transaction underpriced", "nonce-taken"],
    ["nonce has already been used", "nonce-taken"],
    ["insufficient funds for gas * price + value", "other"],
    ["intrinsic gas too low", "other"],
    ["max fee per gas less than block base fee", "fee-too-low"],
    ["max fee per gas less than block base fee: address 0xabc, maxFeePerGas: 1000000000, baseFee: 200000000000", "fee-too-low"],
    ["fee cap less than block base fee", "fee-too-low"],
    ["transaction underpriced", "other"],
    ["execution reverted", "other"],
  ] as const)("%s -> %s", (message, kind) => {
    expect(sendErrorKind(message)).toBe(kind);
  });
});
