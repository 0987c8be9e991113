// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title IOperatorRegistry
/// @notice One place where a user authorises an operator (the service's relayer) to act for them in the
/// marketplace's contracts. Revocable at any time, and grantable gasless with an EIP-712 signature
/// (EOA or EIP-1271 contract account). An operator can only trigger actions the rules allow; every
/// payout still goes to the party the rules name, never to the operator.
interface IOperatorRegistry {
    /// @notice Emitted when `user` grants or revokes `operator`.
    /// @param user The user the operator acts for.
    /// @param operator The operator.
    /// @param approved True for a grant, false for a revocation.
    event OperatorSet(address indexed user, address indexed operator, bool approved);

    /// @notice Grants or revokes `operator` for the caller.
    /// @dev Emits `OperatorSet`. Requirements:
    /// - `operator` is not zero.
    /// @param operator The operator.
    /// @param approved True to grant, false to revoke.
    function setOperator(address operator, bool approved) external;

    /// @notice Grants or revokes `operator` for `user` with `user`'s EIP-712 signature over
    /// `SetOperator(address user,address operator,bool approved,uint256 nonce,uint256 deadline)`.
    /// Anyone may submit the signature; it consumes `user`'s nonce.
    /// @dev Emits `OperatorSet`. Requirements:
    /// - `block.timestamp <= deadline`.
    /// - `signature` is valid for `user` (ECDSA or EIP-1271) with `user`'s current nonce.
    /// - `operator` is not zero.
    /// @param user The user granting or revoking.
    /// @param operator The operator.
    /// @param approved True to grant, false to revoke.
    /// @param deadline The last second the signature is valid (unix seconds).
    /// @param signature `user`'s signature (65-byte ECDSA, or whatever `user`'s EIP-1271 wallet accepts).
    function setOperatorWithSig(address user, address operator, bool approved, uint256 deadline, bytes calldata signature)
        external;

    /// @notice The caller gives up being `user`'s operator: lets a service honour a user's "revoke" request
    /// without holding a fresh signature, and never grants anything.
    /// @dev Emits `OperatorSet(user, msg.sender, false)`, also when the caller was not approved.
    /// Requirements: none; anyone may renounce for themselves.
    /// @param user The user whose grant to the caller ends.
    function renounceOperator(address user) external;

    /// @notice True when `caller` may act for `user`.
    /// @param user The user.
    /// @param caller The account acting.
    /// @return True when `caller` is `user` or an operator `user` has approved.
    function isAuthorized(address user, address caller) external view returns (bool);

    /// @notice True when `user` has approved `operator`.
    /// @param user The user.
    /// @param operator The operator.
    /// @return True while the grant stands.
    function isOperator(address user, address operator) external view returns (bool);

    /// @notice The next nonce of `user` for `setOperatorWithSig`.
    /// @param user The user.
    /// @return The nonce the next signature must carry.
    function nonces(address user) external view returns (uint256);
}
