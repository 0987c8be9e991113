// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Base} from "../Base.t.sol";
import {ERC1271Wallet} from "../mocks/ERC1271Wallet.sol";
import {IOperatorRegistry} from "contracts/interfaces/IOperatorRegistry.sol";
import {Errors} from "contracts/libraries/Errors.sol";

contract OperatorRegistry_Test is Base {
    uint256 internal userKey;
    address internal user;

    function setUp() public override {
        super.setUp();
        (user, userKey) = makeAddrAndKey("SigningUser");
    }

    function digest(address user_, address operator, bool approved, uint256 nonce, uint256 deadline)
        internal
        view
        returns (bytes32)
    {
        bytes32 structHash =
            keccak256(abi.encode(operators.SET_OPERATOR_TYPEHASH(), user_, operator, approved, nonce, deadline));
        return keccak256(abi.encodePacked("\x19\x01", operators.DOMAIN_SEPARATOR(), structHash));
    }

    function sign(uint256 key, bytes32 hash) internal pure returns (bytes memory) {
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(key, hash);
        return abi.encodePacked(r, s, v);
    }

    function test_Typehash() external view {
        assertEq(
            operators.SET_OPERATOR_TYPEHASH(),
            keccak256("SetOperator(address user,address operator,bool approved,uint256 nonce,uint256 deadline)"),
            "typehash"
        );
        (, string memory name, string memory version, uint256 chainId, address verifying,,) = operators.eip712Domain();
        assertEq(name, "MissionMarketplace Operators", "domain name");
        assertEq(version, "1", "domain version");
        assertEq(chainId, block.chainid, "chain id");
        assertEq(verifying, address(operators), "verifying contract");
    }

    function test_SetOperator() external {
        vm.expectEmit(address(operators));
        emit IOperatorRegistry.OperatorSet(users.poster, users.operator, true);
        vm.prank(users.poster);
        operators.setOperator(users.operator, true);
        assertTrue(operators.isOperator(users.poster, users.operator), "operator");
        assertTrue(operators.isAuthorized(users.poster, users.operator), "authorized");
        assertFalse(operators.isAuthorized(users.performer, users.operator), "only for poster");
    }

    function test_SetOperator_Revoke() external {
        vm.startPrank(users.poster);
        operators.setOperator(users.operator, true);
        operators.setOperator(users.operator, false);
        vm.stopPrank();
        assertFalse(operators.isOperator(users.poster, users.operator), "revoked");
        assertFalse(operators.isAuthorized(users.poster, users.operator), "not authorized");
    }

    function test_RenounceOperator() external {
        vm.prank(users.poster);
        operators.setOperator(users.operator, true);
        vm.expectEmit(address(operators));
        emit IOperatorRegistry.OperatorSet(users.poster, users.operator, false);
        vm.prank(users.operator);
        operators.renounceOperator(users.poster);
        assertFalse(operators.isOperator(users.poster, users.operator), "renounced");
    }

    function test_RenounceOperator_OnlyTheCallersOwnApproval() external {
        vm.startPrank(users.poster);
        operators.setOperator(users.operator, true);
        operators.setOperator(users.performer, true);
        vm.stopPrank();
        vm.prank(users.performer);
        operators.renounceOperator(users.poster);
        assertTrue(operators.isOperator(users.poster, users.operator), "another operator's approval stays");
        assertFalse(operators.isOperator(users.poster, users.performer), "the caller's own is gone");
    }

    function test_SetOperator_RevertWhen_ZeroOperator() external {
        vm.prank(users.poster);
        vm.expectRevert(Errors.ZeroAddress.selector);
        operators.setOperator(address(0), true);
    }

    function test_IsAuthorized_Self() external view {
        assertTrue(operators.isAuthorized(users.eve, users.eve), "self is authorized");
        assertFalse(operators.isOperator(users.eve, users.eve), "self is not an operator");
    }

    function test_SetOperatorWithSig() external {
        uint256 deadline = block.timestamp + 1 hours;
        bytes memory sig = sign(userKey, digest(user, users.operator, true, 0, deadline));
        vm.expectEmit(address(operators));
        emit IOperatorRegistry.OperatorSet(user, users.operator, true);
        vm.prank(users.eve); // anyone may relay the signature
        operators.setOperatorWithSig(user, users.operator, true, deadline, sig);
        assertTrue(operators.isOperator(user, users.operator), "operator");
        assertEq(operators.nonces(user), 1, "nonce used");
    }

    function test_SetOperatorWithSig_AtDeadline() external {
        uint256 deadline = block.timestamp;
        bytes memory sig = sign(userKey, digest(user, users.operator, true, 0, deadline));
        operators.setOperatorWithSig(user, users.operator, true, deadline, sig);
        assertTrue(operators.isOperator(user, users.operator), "valid at the deadline");
    }

    function test_SetOperatorWithSig_RevertWhen_Expired() external {
        uint256 deadline = block.timestamp - 1;
        bytes memory sig = sign(userKey, digest(user, users.operator, true, 0, deadline));
        vm.expectRevert(abi.encodeWithSelector(Errors.OperatorRegistry_SignatureExpired.selector, deadline));
        operators.setOperatorWithSig(user, users.operator, true, deadline, sig);
    }

    function test_SetOperatorWithSig_RevertWhen_Replayed() external {
        uint256 deadline = block.timestamp + 1 hours;
        bytes memory sig = sign(userKey, digest(user, users.operator, true, 0, deadline));
        operators.setOperatorWithSig(user, users.operator, true, deadline, sig);
        vm.prank(user);
        operators.setOperator(users.operator, false);
        vm.expectRevert(abi.encodeWithSelector(Errors.OperatorRegistry_InvalidSignature.selector, user));
        operators.setOperatorWithSig(user, users.operator, true, deadline, sig);
    }

    function test_SetOperatorWithSig_RevertWhen_WrongSigner() external {
        (, uint256 otherKey) = makeAddrAndKey("Other");
        uint256 deadline = block.timestamp + 1 hours;
        bytes memory sig = sign(otherKey, digest(user, users.operator, true, 0, deadline));
        vm.expectRevert(abi.encodeWithSelector(Errors.OperatorRegistry_InvalidSignature.selector, user));
        operators.setOperatorWithSig(user, users.operator, true, deadline, sig);
    }

    function test_SetOperatorWithSig_RevertWhen_TamperedFields() external {
        uint256 deadline = block.timestamp + 1 hours;
        bytes memory sig = sign(userKey, digest(user, users.operator, true, 0, deadline));
        vm.expectRevert(abi.encodeWithSelector(Errors.OperatorRegistry_InvalidSignature.selector, user));
        operators.setOperatorWithSig(user, users.eve, true, deadline, sig);
        vm.expectRevert(abi.encodeWithSelector(Errors.OperatorRegistry_InvalidSignature.selector, user));
        operators.setOperatorWithSig(user, users.operator, true, deadline + 1, sig);
    }

    function test_SetOperatorWithSig_RevertWhen_MalformedSignature() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.OperatorRegistry_InvalidSignature.selector, user));
        operators.setOperatorWithSig(user, users.operator, true, block.timestamp, hex"1234");
    }

    function test_SetOperatorWithSig_ERC1271Account() external {
        ERC1271Wallet wallet = new ERC1271Wallet(user);
        uint256 deadline = block.timestamp + 1 hours;
        bytes memory sig = sign(userKey, digest(address(wallet), users.operator, true, 0, deadline));
        operators.setOperatorWithSig(address(wallet), users.operator, true, deadline, sig);
        assertTrue(operators.isOperator(address(wallet), users.operator), "contract account approved");
        assertEq(operators.nonces(address(wallet)), 1, "nonce used");
    }

    function test_SetOperatorWithSig_RevertWhen_ERC1271Rejects() external {
        ERC1271Wallet wallet = new ERC1271Wallet(users.eve);
        uint256 deadline = block.timestamp + 1 hours;
        bytes memory sig = sign(userKey, digest(address(wallet), users.operator, true, 0, deadline));
        vm.expectRevert(abi.encodeWithSelector(Errors.OperatorRegistry_InvalidSignature.selector, address(wallet)));
        operators.setOperatorWithSig(address(wallet), users.operator, true, deadline, sig);
    }

    function testFuzz_SetOperatorWithSig(uint256 key, address operator, bool approved, uint256 validFor) external {
        key = bound(key, 1, 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140);
        vm.assume(operator != address(0));
        validFor = bound(validFor, 0, 365 days);
        address signer = vm.addr(key);
        uint256 deadline = block.timestamp + validFor;
        bytes memory sig = sign(key, digest(signer, operator, approved, 0, deadline));
        operators.setOperatorWithSig(signer, operator, approved, deadline, sig);
        assertEq(operators.isOperator(signer, operator), approved, "approval");
        assertEq(operators.nonces(signer), 1, "nonce");
    }
}
