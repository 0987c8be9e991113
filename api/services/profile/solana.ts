// Linking a Solana address: the owner of the Solana key signs (ed25519) a message naming both
// addresses and the chain, so a signature for one EVM account or network cannot be replayed on another.
import { ed25519 } from "@noble/curves/ed25519.js";
import { base58 } from "@scure/base";

export function solanaLinkMessage(solanaAddress: string, evmAddress: string, chainId: number): string {
  return `Link Solana address ${solanaAddress} to ${evmAddress.toLowerCase()} on mission-marketplace (chain ${chainId})`;
}

/** A base58 string that decodes to a 32-byte ed25519 public key; null otherwise. */
export function decodeSolanaAddress(address: string): Uint8Array | null {
  try {
    const key = base58.decode(address);
    return key.length === 32 ? key : null;
  } catch {
    return null;
  }
}

/** The signature as sent by wallets: base58 (Phantom, solana-web3) or 0x-hex or base64, 64 bytes. */
export function decodeSignature(signature: string): Uint8Array | null {
  const tries: (() => Uint8Array)[] = [
    () => {
      if (!/^0x[0-9a-fA-F]{128}$/.test(signature)) throw new Error("not hex");
      return Uint8Array.from(Buffer.from(signature.slice(2), "hex"));
    },
    () => base58.decode(signature),
    () => {
      if (!/^[A-Za-z0-9+/]+={0,2}$/.test(signature)) throw new Error("not base64");
      return Uint8Array.from(Buffer.from(signature, "base64"));
    },
  ];
  for (const t of tries) {
    try {
      const sig = t();
      if (sig.length === 64) return sig;
    } catch {
      // next encoding
    }
  }
  return null;
}

/** True when `signature` is a valid ed25519 signature by `solanaAddress` over the link message. */
export function verifySolanaLink(args: { solanaAddress: string; signature: string; evmAddress: string; chainId: number }): boolean {
  const key = decodeSolanaAddress(args.solanaAddress);
  const sig = decodeSignature(args.signature);
  if (!key || !sig) return false;
  const message = new TextEncoder().encode(solanaLinkMessage(args.solanaAddress, args.evmAddress, args.chainId));
  try {
    return ed25519.verify(sig, message, key);
  } catch {
    return false;
  }
}
