// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title IOperatorRegistry
/// @notice One place where a user authorises an operator (the service's relayer) to act for them in the
/// marketplace's contracts. Revocable at any time, and grantable gasless with an EIP-712 signature
/// (EOA or EIP-1271 contract account). An operator can only trigger actions the rules allow; every
/// payout still goes to the party the rules name, never to the operator.
interface IOperatorRegistry {
    /// @notice Emitted when `user` grants or revokes `operator`.
    event OperatorSet(address indexed user, address indexed operator, bool approved);

    /// @notice Grants or revokes `operator` for the caller.
    function setOperator(address operator, bool approved) external;

    /// @notice Grants or revokes `operator` for `user` with `user`'s EIP-712 signature over
    /// `SetOperator(address user,address operator,bool approved,uint256 nonce,uint256 deadline)`.
    /// @dev Requirements:
    /// - `block.timestamp <= deadline`.
    /// - `signature` is valid for `user` (ECDSA or EIP-1271) with `user`'s current nonce.
    function setOperatorWithSig(address user, address operator, bool approved, uint256 deadline, bytes calldata signature)
        external;

    /// @notice True when `caller` is `user` or an operator `user` has approved.
    function isAuthorized(address user, address caller) external view returns (bool);

    /// @notice True when `user` has approved `operator`.
    function isOperator(address user, address operator) external view returns (bool);

    /// @notice The next nonce of `user` for `setOperatorWithSig`.
    function nonces(address user) external view returns (uint256);
}
