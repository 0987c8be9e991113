// The time the keeper decides by. On a real chain: the latest block's timestamp, so a deadline it
// sees passed is passed for any later block too. The local anvil (31337) mines only on demand and its
// clock stands still without traffic, while its next block takes the wall clock (plus any
// evm_increaseTime offset): there the later of the two is still a lower bound of the next block's time.
import type { PublicClient } from "viem";

export const LOCAL_CHAIN_ID = 31337;

export async function chainNow(client: PublicClient, chainId: number, wallClockMs = Date.now()): Promise<bigint> {
  const block = await client.getBlock({ blockTag: "latest" });
  if (chainId !== LOCAL_CHAIN_ID) return block.timestamp;
  const wall = BigInt(Math.floor(wallClockMs / 1000));
  return wall > block.timestamp ? wall : block.timestamp;
}
