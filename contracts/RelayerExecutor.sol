// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {Address} from "@openzeppelin/contracts/utils/Address.sol";
import {Pausable} from "@openzeppelin/contracts/utils/Pausable.sol";

import {IRelayerExecutor} from "./interfaces/IRelayerExecutor.sol";
import {Errors} from "./libraries/Errors.sol";

/// @title RelayerExecutor
/// @notice Lets a pool of relayer keys act as one operator. Users approve this contract once in the
/// OperatorRegistry; the admin grants and revokes RELAYER_ROLE per key, so keys rotate without users
/// re-authorising. A key can only forward allowlisted (target, selector) pairs; the targets' own rules
/// then decide who is paid. The executor holds no funds: it is not payable and has no way to move tokens.
contract RelayerExecutor is IRelayerExecutor, AccessControl, Pausable {
    /// @notice The pool's keys.
    bytes32 public constant RELAYER_ROLE = keccak256("RELAYER_ROLE");
    /// @notice May stop forwarding at once (e.g. monitoring); only the admin resumes.
    bytes32 public constant PAUSER_ROLE = keccak256("PAUSER_ROLE");
    /// @notice The most calls one batch may forward.
    uint256 public constant MAX_BATCH = 32;

    mapping(address target => mapping(bytes4 selector => bool allowed)) internal _allowed;

    /// @param admin Holds DEFAULT_ADMIN_ROLE (a cold key or multisig, never a pool key).
    constructor(address admin) {
        if (admin == address(0)) revert Errors.ZeroAddress();
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
    }

    /// @inheritdoc IRelayerExecutor
    function setAllowed(address target, bytes4 selector, bool allowed) external onlyRole(DEFAULT_ADMIN_ROLE) {
        if (allowed) {
            // Forwarding to itself would let a key reach AccessControl's functions as the executor.
            if (target == address(this)) revert Errors.RelayerExecutor_SelfTarget();
            if (target.code.length == 0) revert Errors.RelayerExecutor_NotAContract(target);
        }
        _allowed[target][selector] = allowed;
        emit CallAllowed(target, selector, allowed);
    }

    /// @inheritdoc IRelayerExecutor
    function isAllowed(address target, bytes4 selector) external view returns (bool) {
        return _allowed[target][selector];
    }

    /// @inheritdoc IRelayerExecutor
    function execute(address target, bytes calldata data)
        external
        onlyRole(RELAYER_ROLE)
        whenNotPaused
        returns (bytes memory result)
    {
        return _forward(target, data);
    }

    /// @inheritdoc IRelayerExecutor
    function executeBatch(Call[] calldata calls)
        external
        onlyRole(RELAYER_ROLE)
        whenNotPaused
        returns (bytes[] memory results)
    {
        uint256 n = calls.length;
        if (n == 0 || n > MAX_BATCH) revert Errors.RelayerExecutor_InvalidBatchSize(n, MAX_BATCH);
        results = new bytes[](n);
        for (uint256 i; i < n; ++i) {
            results[i] = _forward(calls[i].target, calls[i].data);
        }
    }

    /// @inheritdoc IRelayerExecutor
    function pause() external onlyRole(PAUSER_ROLE) {
        _pause();
    }

    /// @inheritdoc IRelayerExecutor
    function unpause() external onlyRole(DEFAULT_ADMIN_ROLE) {
        _unpause();
    }

    function _forward(address target, bytes calldata data) internal returns (bytes memory) {
        bytes4 selector = data.length < 4 ? bytes4(0) : bytes4(data[:4]);
        if (data.length < 4 || !_allowed[target][selector]) {
            revert Errors.RelayerExecutor_CallNotAllowed(target, selector);
        }
        // The executor is every approving user's operator, and `isAuthorized(x, x)` is true: were it named
        // as a poster, performer or account, it would act for itself and trap funds here. ABI arguments sit
        // in 32-byte words after the selector; an unrelated word equal to this address is not a concern.
        uint256 self = uint256(uint160(address(this)));
        for (uint256 i = 4; i + 32 <= data.length; i += 32) {
            if (uint256(bytes32(data[i:i + 32])) == self) {
                revert Errors.RelayerExecutor_SelfAsParty(target, selector);
            }
        }
        emit Forwarded(msg.sender, target, selector);
        return Address.functionCall(target, data);
    }
}
