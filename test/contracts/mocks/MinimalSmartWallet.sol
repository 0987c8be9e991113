// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";
import {IERC1271} from "@openzeppelin/contracts/interfaces/IERC1271.sol";

/// @notice The smallest useful smart account for e2e tests: its owner's ECDSA signatures count as the
/// account's (EIP-1271), and the owner can make it call another contract (e.g. approve a spender).
contract MinimalSmartWallet is IERC1271 {
    error MinimalSmartWallet_NotOwner(address caller);
    error MinimalSmartWallet_CallFailed(bytes reason);

    address public immutable owner;

    constructor(address owner_) {
        owner = owner_;
    }

    function execute(address target, bytes calldata data) external returns (bytes memory result) {
        if (msg.sender != owner) revert MinimalSmartWallet_NotOwner(msg.sender);
        bool ok;
        (ok, result) = target.call(data);
        if (!ok) revert MinimalSmartWallet_CallFailed(result);
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        (address signer, ECDSA.RecoverError err,) = ECDSA.tryRecover(hash, signature);
        return err == ECDSA.RecoverError.NoError && signer == owner ? IERC1271.isValidSignature.selector : bytes4(0);
    }
}
