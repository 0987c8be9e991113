// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @title IRelayerExecutor
/// @notice The service's single on-chain identity. Users approve this contract once as their operator in
/// the OperatorRegistry; a pool of relayer keys (RELAYER_ROLE) may ask it to forward calls, but only to
/// (target, function selector) pairs the admin has allowlisted. Keys are granted and revoked by the admin
/// (rotation) without any user re-authorising. The executor holds no funds and never acts as a party.
interface IRelayerExecutor {
    /// @notice One call to forward.
    /// @param target An allowlisted contract.
    /// @param data The calldata; its first four bytes must be an allowlisted selector of `target`.
    struct Call {
        address target;
        bytes data;
    }

    /// @notice Emitted when the admin allows or disallows `selector` on `target`.
    /// @param target The contract.
    /// @param selector The function selector.
    /// @param allowed True when keys may now forward it.
    event CallAllowed(address indexed target, bytes4 indexed selector, bool allowed);

    /// @notice Emitted for every call forwarded (also each call of a batch).
    /// @param relayer The pool key that sent the transaction.
    /// @param target The contract called.
    /// @param selector The function called.
    event Forwarded(address indexed relayer, address indexed target, bytes4 selector);

    /// @notice Allows or disallows keys to forward `selector` to `target`.
    /// @dev Emits `CallAllowed`. Requirements:
    /// - the caller has DEFAULT_ADMIN_ROLE.
    /// - when allowing: `target` is a contract and is not the executor itself.
    /// @param target The contract.
    /// @param selector The function selector.
    /// @param allowed True to allow, false to disallow.
    function setAllowed(address target, bytes4 selector, bool allowed) external;

    /// @notice True when keys may forward `selector` to `target`.
    /// @param target The contract.
    /// @param selector The function selector.
    /// @return True while allowlisted.
    function isAllowed(address target, bytes4 selector) external view returns (bool);

    /// @notice Forwards one call and returns its result; a revert of the target is re-raised unchanged.
    /// @dev Emits `Forwarded`. Requirements:
    /// - the caller has RELAYER_ROLE and the executor is not paused.
    /// - (`target`, first four bytes of `data`) is allowlisted.
    /// - no 32-byte argument word of `data` is the executor's own address (it never acts as a party).
    /// @param target The contract to call.
    /// @param data The calldata.
    /// @return result The target's return data.
    function execute(address target, bytes calldata data) external returns (bytes memory result);

    /// @notice Forwards up to MAX_BATCH calls in order, all or nothing.
    /// @dev Same requirements as `execute` for every call; `calls` is not empty and has at most MAX_BATCH.
    /// @param calls The calls.
    /// @return results Each call's return data, in order.
    function executeBatch(Call[] calldata calls) external returns (bytes[] memory results);

    /// @notice Stops all forwarding (when a key may be stolen but which one is unknown).
    /// @dev Requirements: the caller has PAUSER_ROLE.
    function pause() external;

    /// @notice Resumes forwarding.
    /// @dev Requirements: the caller has DEFAULT_ADMIN_ROLE.
    function unpause() external;
}
