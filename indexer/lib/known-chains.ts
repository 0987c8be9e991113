// The testnets supported out of the box: their canonical stablecoin (Circle's USDC) and EAS, read by
// the deploy (which reuses them instead of deploying its own), the indexer (chain name, polling) and
// the API (EAS explorer links, confirmations). Sources of every address: docs/decisions.md,
// "Testnets and TLS". Pure data: no I/O, so contracts' scripts, indexer and API can all import it.
import type { Address } from "viem";

export interface KnownChain {
  chainId: number;
  /** Ponder's chain name and the network's usual name in viem/chains. */
  name: string;
  /** Circle's USDC (6 decimals, EIP-2612 permit). */
  usdc: Address;
  eas: Address;
  schemaRegistry: Address;
  /** The canonical EAS's version: delegated attestations with a deadline need 1.2 or later. */
  easVersion: string;
  /** EAS's explorer for this network: an attestation's page is <easExplorer>/attestation/view/<uid>. */
  easExplorer: string;
  /** Typical seconds between blocks, for polling without hammering a public RPC. */
  blockTimeSeconds: number;
  /** Blocks Ponder itself treats as reorganisable on this chain (it has no setting for it). */
  ponderFinalityBlocks: number;
  /** Blocks on top of an event before an irreversible effect (a mint, a push) acts on it. */
  confirmations: number;
}

/** OP-stack predeploys: EAS and its SchemaRegistry sit at the same addresses on every OP-stack chain. */
const OP_STACK_EAS = "0x4200000000000000000000000000000000000021" as const;
const OP_STACK_SCHEMA_REGISTRY = "0x4200000000000000000000000000000000000020" as const;

export const KNOWN_CHAINS = [
  {
    chainId: 11155111,
    name: "sepolia",
    usdc: "0x1c7D4B196Cb0C7B01d743Fbc6116a902379C7238",
    eas: "0xC2679fBD37d54388Ce493F1DB75320D236e1815e",
    schemaRegistry: "0x0a7E2Ff54e76B8E6659aedc9103FB21c038050D0",
    easVersion: "0.26",
    easExplorer: "https://sepolia.easscan.org",
    blockTimeSeconds: 12,
    ponderFinalityBlocks: 65,
    confirmations: 12,
  },
  {
    chainId: 84532,
    name: "baseSepolia",
    usdc: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
    eas: OP_STACK_EAS,
    schemaRegistry: OP_STACK_SCHEMA_REGISTRY,
    easVersion: "1.2.0",
    easExplorer: "https://base-sepolia.easscan.org",
    blockTimeSeconds: 2,
    ponderFinalityBlocks: 30,
    confirmations: 12,
  },
  {
    chainId: 11155420,
    name: "optimismSepolia",
    usdc: "0x5fd84259d66Cd46123540766Be93DFE6D43130D7",
    eas: OP_STACK_EAS,
    schemaRegistry: OP_STACK_SCHEMA_REGISTRY,
    easVersion: "1.0.2",
    easExplorer: "https://optimism-sepolia.easscan.org",
    blockTimeSeconds: 2,
    ponderFinalityBlocks: 30,
    confirmations: 12,
  },
  {
    chainId: 421614,
    name: "arbitrumSepolia",
    usdc: "0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d",
    eas: "0x2521021fc8BF070473E1e1801D3c7B4aB701E1dE",
    schemaRegistry: "0x45CB6Fa0870a8Af06796Ac15915619a0f22cd475",
    easVersion: "1.3.0",
    easExplorer: "https://arbitrum-sepolia.easscan.org",
    blockTimeSeconds: 1,
    ponderFinalityBlocks: 30,
    confirmations: 20,
  },
] as const satisfies readonly KnownChain[];

export function knownChain(chainId: number): KnownChain | undefined {
  return KNOWN_CHAINS.find((c) => c.chainId === chainId);
}

/** Whether this EAS version takes `deadline` in delegated attestations (the API's rating attester needs it). */
export function easHasDelegationDeadline(version: string): boolean {
  const [major = 0, minor = 0] = version.split(".").map(Number);
  return major > 1 || (major === 1 && minor >= 2);
}
