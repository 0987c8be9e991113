// Pure SIWE (EIP-4361) field checks, separate from I/O so they can be unit-tested with any clock.
import { getAddress, type Address } from "viem";
import { parseSiweMessage, validateSiweMessage } from "viem/siwe";

/** The server issues messages of ~400 characters; anything far longer was not issued by it. */
export const SIWE_MAX_MESSAGE_LENGTH = 4096;

export interface SiweExpectation {
  address: Address;
  domain: string;
  uri: string;
  chainId: number;
  nonce: string;
}

/** Returns null when every field matches, else the first reason the message is not acceptable. */
export function siweProblem(message: string, expected: SiweExpectation, now: Date): string | null {
  if (message.length > SIWE_MAX_MESSAGE_LENGTH) return "message is too long";
  const m = parseSiweMessage(message);
  if (m.version !== "1") return "unsupported SIWE version";
  if (!m.address || getAddress(m.address) !== getAddress(expected.address)) return "address does not match";
  if (m.domain !== expected.domain) return "domain does not match";
  if (m.uri !== expected.uri) return "uri does not match";
  if (m.chainId !== expected.chainId) return "chain id does not match";
  if (m.nonce !== expected.nonce) return "nonce does not match";
  if (!m.issuedAt || m.issuedAt.getTime() > now.getTime() + 60_000) return "issuedAt is missing or in the future";
  if (!m.expirationTime) return "expirationTime is missing";
  if (m.expirationTime.getTime() <= now.getTime()) return "message expired";
  if (m.notBefore && m.notBefore.getTime() > now.getTime()) return "message not yet valid";
  // viem's own check as a second opinion (address, domain, nonce, time window).
  const ok = validateSiweMessage({
    message: m,
    address: expected.address,
    domain: expected.domain,
    nonce: expected.nonce,
    time: now,
  });
  return ok ? null : "message is not valid";
}
