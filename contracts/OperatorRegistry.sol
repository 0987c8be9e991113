// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {Nonces} from "@openzeppelin/contracts/utils/Nonces.sol";

import {IOperatorRegistry} from "./interfaces/IOperatorRegistry.sol";
import {Errors} from "./libraries/Errors.sol";

/// @title OperatorRegistry
/// @notice Users authorise operators (the service's relayer) here, directly or by an EIP-712 signature
/// (EOA or EIP-1271 account). Every marketplace contract asks `isAuthorized` before acting for a user.
contract OperatorRegistry is IOperatorRegistry, EIP712, Nonces {
    bytes32 public constant SET_OPERATOR_TYPEHASH = keccak256(
        "SetOperator(address user,address operator,bool approved,uint256 nonce,uint256 deadline)"
    );

    mapping(address user => mapping(address operator => bool approved)) internal _operators;

    constructor() EIP712("MissionMarketplace Operators", "1") {}

    /// @inheritdoc IOperatorRegistry
    function setOperator(address operator, bool approved) external {
        _setOperator(msg.sender, operator, approved);
    }

    /// @inheritdoc IOperatorRegistry
    function setOperatorWithSig(
        address user,
        address operator,
        bool approved,
        uint256 deadline,
        bytes calldata signature
    ) external {
        if (block.timestamp > deadline) revert Errors.OperatorRegistry_SignatureExpired(deadline);
        // The nonce is consumed before the check; a failed check reverts the whole call.
        bytes32 structHash =
            keccak256(abi.encode(SET_OPERATOR_TYPEHASH, user, operator, approved, _useNonce(user), deadline));
        if (!SignatureChecker.isValidSignatureNow(user, _hashTypedDataV4(structHash), signature)) {
            revert Errors.OperatorRegistry_InvalidSignature(user);
        }
        _setOperator(user, operator, approved);
    }

    /// @inheritdoc IOperatorRegistry
    function renounceOperator(address user) external {
        _setOperator(user, msg.sender, false);
    }

    /// @inheritdoc IOperatorRegistry
    function isAuthorized(address user, address caller) external view returns (bool) {
        return user == caller || _operators[user][caller];
    }

    /// @inheritdoc IOperatorRegistry
    function isOperator(address user, address operator) external view returns (bool) {
        return _operators[user][operator];
    }

    /// @inheritdoc IOperatorRegistry
    function nonces(address user) public view override(IOperatorRegistry, Nonces) returns (uint256) {
        return super.nonces(user);
    }

    /// @notice The EIP-712 domain separator of this registry.
    function DOMAIN_SEPARATOR() external view returns (bytes32) {
        return _domainSeparatorV4();
    }

    function _setOperator(address user, address operator, bool approved) internal {
        if (operator == address(0)) revert Errors.ZeroAddress();
        _operators[user][operator] = approved;
        emit OperatorSet(user, operator, approved);
    }
}
