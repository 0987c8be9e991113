import { mnemonicToAccount } from "viem/accounts";
import type { Address } from "viem";

/** anvil's well-known development mnemonic: its keys are public and must never hold real funds. */
export const ANVIL_MNEMONIC = "test test test test test test test test test test test junk";

/** anvil's account `index` (0 deploys and relays, 1..8 are funded users, 9 is a resolver). */
export const anvilAccount = (index: number) => mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index });

export const anvilAddress = (index: number): Address => anvilAccount(index).address;

/** The users the local set-up funds: anvil's accounts 1..8. */
export const FUNDED_ACCOUNT_INDEXES = [1, 2, 3, 4, 5, 6, 7, 8] as const;
export const RESOLVER_ACCOUNT_INDEX = 9;
/** What each funded account holds at least after the local set-up: 100,000 tUSDC in base units. */
export const LOCAL_BALANCE = 100_000n * 10n ** 6n;
/** The e2e tests' token faucet (granted FAUCET_ROLE by test/e2e/global-setup.ts), so that tests never send from account 0, the relayer. */
export const TEST_FAUCET_ACCOUNT_INDEX = 19;
