// What the marketplace uses of its stablecoin, whichever token the escrow holds: ERC-20, an
// ERC-2612 permit and its ERC-5267 domain. Not the test token's ABI: on a known testnet the
// stablecoin is the chain's USDC, so callers ask the escrow (`token()`) for its address and talk to
// it through this interface only.
import { erc20Abi, parseAbi } from "viem";

export const stablecoinAbi = [
  ...erc20Abi,
  ...parseAbi([
    "function permit(address owner, address spender, uint256 value, uint256 deadline, uint8 v, bytes32 r, bytes32 s)",
    "function nonces(address owner) view returns (uint256)",
    "function eip712Domain() view returns (bytes1 fields, string name, string version, uint256 chainId, address verifyingContract, bytes32 salt, uint256[] extensions)",
  ]),
] as const;
