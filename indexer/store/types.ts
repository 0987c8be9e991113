// Minimal shapes of what handlers pass to the store helpers.
import type { Context } from "ponder:registry";

export type Ctx = Context;
export type EventLike = {
  block: { number: bigint; timestamp: bigint };
  transaction: { hash: `0x${string}` };
  log: { logIndex: number; address: `0x${string}` };
};
export type Addr = `0x${string}`;
export const lc = (a: Addr): Addr => a.toLowerCase() as Addr;
export const ZERO_ADDRESS = "0x0000000000000000000000000000000000000000";
