// Turns an anvil into a stand-in for a known testnet: the canonical EAS and SchemaRegistry (EAS's own
// compiled artifacts) and a 6-decimal EIP-2612 token (the project's TestStablecoin) at the chain's
// real addresses, so the deploy reuses them exactly as it would on the network itself.
//
// Each contract is first deployed normally (so its constructor sets its immutables: EAS's registry,
// the EIP-712 name hashes), then its runtime code is copied to the canonical address with
// anvil_setCode. Constructor-written storage is copied slot by slot (the token's name, symbol and
// roles); EAS and SchemaRegistry have none.
import fs from "node:fs";
import path from "node:path";
import {
  createPublicClient, createWalletClient, encodeAbiParameters, http, keccak256, toHex, zeroHash,
  type Abi, type Address, type Hex, type PublicClient,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { testStablecoinAbi } from "../../abis/index.ts";
import type { KnownChain } from "../../indexer/lib/known-chains.ts";
import { repoRoot } from "./paths.ts";

const EAS_ARTIFACTS = path.join(repoRoot, "node_modules/@ethereum-attestation-service/eas-contracts/artifacts/contracts");
const FAUCET_ROLE = keccak256(toHex("FAUCET_ROLE"));
/**
 * TestStablecoin's storage (OpenZeppelin 5, non-upgradeable): ERC20 uses slots 0-4 (balances,
 * allowances, totalSupply, name, symbol), EIP712 5-6, Nonces 7, AccessControl's roles mapping 8.
 * placeStablecoin checks the result through the token's own getters, so a layout change fails loudly.
 */
const TOKEN_PLAIN_SLOTS = 8;
const TOKEN_ROLES_SLOT = 8n;

function artifact(file: string, kind: "hardhat" | "forge"): { abi: Abi; bytecode: Hex } {
  const json = JSON.parse(fs.readFileSync(file, "utf8"));
  return { abi: json.abi, bytecode: kind === "hardhat" ? json.bytecode : json.bytecode.object };
}

async function rpc(client: PublicClient, method: string, params: unknown[]): Promise<unknown> {
  return client.request({ method, params } as never);
}

export interface PlaceOptions {
  /** Holds the stand-in token's DEFAULT_ADMIN_ROLE and FAUCET_ROLE (mints test balances). */
  tokenAdmin: Address;
  /** Forge build dir holding TestStablecoin (default: out/). */
  outDir?: string;
}

/** Places EAS, SchemaRegistry and a stand-in USDC at `chain`'s canonical addresses on an anvil. */
export async function placeCanonicalContracts(rpcUrl: string, chain: KnownChain, options: PlaceOptions): Promise<void> {
  const client = createPublicClient({ transport: http(rpcUrl) }) as PublicClient;
  if ((await client.getChainId()) !== chain.chainId) throw new Error(`the anvil at ${rpcUrl} is not chain ${chain.chainId}`);
  // A throwaway sender for the template deployments: nothing else ever uses it.
  const account = privateKeyToAccount(generatePrivateKey());
  await rpc(client, "anvil_setBalance", [account.address, toHex(10n ** 20n)]);
  const wallet = createWalletClient({ account, transport: http(rpcUrl) });
  const deployTemplate = async (a: { abi: Abi; bytecode: Hex }, args: unknown[]) => {
    const hash = await wallet.deployContract({ chain: null, abi: a.abi, bytecode: a.bytecode, args });
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 50 });
    if (receipt.status !== "success" || !receipt.contractAddress) throw new Error("template deployment failed");
    return receipt.contractAddress;
  };
  const copyCode = async (from: Address, to: Address) => {
    const code = await client.getCode({ address: from });
    await rpc(client, "anvil_setCode", [to, code]);
  };

  const registry = artifact(path.join(EAS_ARTIFACTS, "SchemaRegistry.sol/SchemaRegistry.json"), "hardhat");
  await copyCode(await deployTemplate(registry, []), chain.schemaRegistry);
  // EAS keeps its registry in an immutable: build it against the canonical registry's address.
  const eas = artifact(path.join(EAS_ARTIFACTS, "EAS.sol/EAS.json"), "hardhat");
  await copyCode(await deployTemplate(eas, [chain.schemaRegistry]), chain.eas);

  await placeStablecoin(client, chain.usdc, options, deployTemplate, copyCode);
}

async function placeStablecoin(
  client: PublicClient,
  at: Address,
  options: PlaceOptions,
  deployTemplate: (a: { abi: Abi; bytecode: Hex }, args: unknown[]) => Promise<Address>,
  copyCode: (from: Address, to: Address) => Promise<void>,
) {
  const outDir = options.outDir ?? path.join(repoRoot, "out");
  const token = artifact(path.join(outDir, "TestStablecoin.sol/TestStablecoin.json"), "forge");
  const template = await deployTemplate(token, [options.tokenAdmin]);
  await copyCode(template, at);
  const setSlot = async (slot: Hex) => {
    const value = await client.getStorageAt({ address: template, slot });
    await rpc(client, "anvil_setStorageAt", [at, slot, value ?? zeroHash]);
  };
  for (let i = 0; i < TOKEN_PLAIN_SLOTS; ++i) await setSlot(toHex(i, { size: 32 }));
  for (const role of [zeroHash, FAUCET_ROLE]) {
    // roles[role].hasRole[admin]: RoleData's first member is the hasRole mapping.
    const roleData = keccak256(encodeAbiParameters([{ type: "bytes32" }, { type: "uint256" }], [role, TOKEN_ROLES_SLOT]));
    await setSlot(keccak256(encodeAbiParameters([{ type: "address" }, { type: "bytes32" }], [options.tokenAdmin, roleData])));
  }

  const read = (functionName: string, args: unknown[] = []) =>
    client.readContract({ address: at, abi: testStablecoinAbi as Abi, functionName, args });
  const [decimals, symbol, minter] = await Promise.all([read("decimals"), read("symbol"), read("hasRole", [FAUCET_ROLE, options.tokenAdmin])]);
  if (decimals !== 6 || symbol !== "tUSDC" || minter !== true) {
    throw new Error(`the stand-in token at ${at} is not set up (decimals ${decimals}, symbol ${symbol}, minter ${minter})`);
  }
}
