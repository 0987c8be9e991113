// The EIP-712 payloads a wallet signs to let the service act for it, in the JSON shape
// eth_signTypedData_v4 takes (integers as decimal strings), and the same payloads rebuilt with
// bigints from an echoed message for verification. Pure: no chain access.
import type { Address, TypedDataDefinition } from "viem";

export const OPERATOR_STEP = "operator";
export const ALLOWANCE_STEP = "allowance";
export type StepId = typeof OPERATOR_STEP | typeof ALLOWANCE_STEP;

const DOMAIN_TYPE = [
  { name: "name", type: "string" },
  { name: "version", type: "string" },
  { name: "chainId", type: "uint256" },
  { name: "verifyingContract", type: "address" },
] as const;
const SET_OPERATOR = [
  { name: "user", type: "address" },
  { name: "operator", type: "address" },
  { name: "approved", type: "bool" },
  { name: "nonce", type: "uint256" },
  { name: "deadline", type: "uint256" },
] as const;
const PERMIT = [
  { name: "owner", type: "address" },
  { name: "spender", type: "address" },
  { name: "value", type: "uint256" },
  { name: "nonce", type: "uint256" },
  { name: "deadline", type: "uint256" },
] as const;

export interface Domain {
  name: string;
  version: string;
  chainId: number;
  verifyingContract: Address;
}
export interface OperatorMessage {
  user: Address;
  operator: Address;
  approved: boolean;
  nonce: bigint;
  deadline: bigint;
}
export interface PermitMessage {
  owner: Address;
  spender: Address;
  value: bigint;
  nonce: bigint;
  deadline: bigint;
}

const decimalStrings = (m: object) =>
  Object.fromEntries(Object.entries(m).map(([k, v]) => [k, typeof v === "bigint" ? v.toString() : v]));
const jsonDomain = (d: Domain) => ({ ...d, chainId: String(d.chainId) });

/** JSON typed data for a wallet (what GET /wallet/setup hands out). */
export function operatorTypedDataJson(domain: Domain, message: OperatorMessage) {
  return {
    domain: jsonDomain(domain),
    types: { EIP712Domain: DOMAIN_TYPE, SetOperator: SET_OPERATOR },
    primaryType: "SetOperator" as const,
    message: decimalStrings(message),
  };
}
export function permitTypedDataJson(domain: Domain, message: PermitMessage) {
  return {
    domain: jsonDomain(domain),
    types: { EIP712Domain: DOMAIN_TYPE, Permit: PERMIT },
    primaryType: "Permit" as const,
    message: decimalStrings(message),
  };
}

/** The same payloads, typed for viem's verifyTypedData. */
export const operatorTypedData = (domain: Domain, message: OperatorMessage): TypedDataDefinition<{ SetOperator: typeof SET_OPERATOR }, "SetOperator"> => ({
  domain,
  types: { SetOperator: SET_OPERATOR },
  primaryType: "SetOperator",
  message,
});
export const permitTypedData = (domain: Domain, message: PermitMessage): TypedDataDefinition<{ Permit: typeof PERMIT }, "Permit"> => ({
  domain,
  types: { Permit: PERMIT },
  primaryType: "Permit",
  message,
});
