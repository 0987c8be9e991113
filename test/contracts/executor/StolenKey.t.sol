// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ExecutorBase} from "./ExecutorBase.t.sol";
import {IMissionEscrow} from "contracts/interfaces/IMissionEscrow.sol";
import {IOperatorRegistry} from "contracts/interfaces/IOperatorRegistry.sol";
import {Errors} from "contracts/libraries/Errors.sol";

/// @notice What a stolen pool key (held by Eve) can and cannot do; the trust model in docs/decisions.md.
contract StolenKey_Test is ExecutorBase {
    function setUp() public override {
        super.setUp();
        bytes32 relayer = executor.RELAYER_ROLE();
        vm.prank(users.admin);
        executor.grantRole(relayer, users.eve);
    }

    function test_StolenKey_CannotPullAllowance() external {
        // The poster gave the escrow an unlimited allowance; the executor is not the escrow.
        bytes memory data = abi.encodeCall(usdc.transferFrom, (users.poster, users.eve, 1));
        vm.expectRevert(
            abi.encodeWithSelector(
                Errors.RelayerExecutor_CallNotAllowed.selector, address(usdc), usdc.transferFrom.selector
            )
        );
        vm.prank(users.eve);
        executor.execute(address(usdc), data);
    }

    function test_StolenKey_CannotBecomeAnOperatorForItself() external {
        bytes memory data = abi.encodeCall(IOperatorRegistry.setOperator, (users.eve, true));
        vm.expectRevert(
            abi.encodeWithSelector(
                Errors.RelayerExecutor_CallNotAllowed.selector,
                address(operators),
                IOperatorRegistry.setOperator.selector
            )
        );
        vm.prank(users.eve);
        executor.execute(address(operators), data);
    }

    function test_StolenKey_CannotActForNonApprovingUser() external {
        address stranger = makeAddr("Stranger");
        fund(stranger);
        vm.expectRevert(abi.encodeWithSelector(Errors.Unauthorized.selector, stranger, address(executor)));
        vm.prank(users.eve);
        executor.execute(address(escrow), createCall(stranger, REWARD));
    }

    function test_StolenKey_CannotRedirectWithdrawals() external {
        uint256 missionId = relayCreate(REWARD);
        vm.prank(users.eve);
        uint256 refund = abi.decode(
            executor.execute(address(escrow), abi.encodeCall(IMissionEscrow.cancelMission, (missionId))),
            (uint256)
        );
        assertGt(refund, 0, "refund");
        assertEq(usdc.balanceOf(address(executor)), 0, "the refund went to the poster, not the executor");
        // withdraw pays the account named, never the caller.
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NothingToWithdraw.selector, users.eve));
        vm.prank(users.eve);
        executor.execute(address(escrow), abi.encodeCall(IMissionEscrow.withdraw, (users.eve)));
    }

    /// @dev The grief a stolen key can do: revoke users' approvals of the executor. No funds move; the
    /// user re-approves (or the service submits a fresh signed grant).
    function test_StolenKey_CanRevokeApprovals_NoFundsMove() external {
        uint256 before = usdc.balanceOf(users.poster);
        vm.prank(users.eve);
        executor.execute(
            address(operators), abi.encodeCall(IOperatorRegistry.renounceOperator, (users.poster))
        );
        assertFalse(operators.isOperator(users.poster, address(executor)), "approval revoked");
        assertEq(usdc.balanceOf(users.poster), before, "no funds moved");
        vm.expectRevert(abi.encodeWithSelector(Errors.Unauthorized.selector, users.poster, address(executor)));
        vm.prank(key0);
        executor.execute(address(escrow), createCall(users.poster, REWARD));
    }

    function test_StolenKey_RevokedEndsIt() external {
        bytes32 relayer = executor.RELAYER_ROLE();
        vm.prank(users.admin);
        executor.revokeRole(relayer, users.eve);
        vm.expectRevert();
        vm.prank(users.eve);
        executor.execute(address(escrow), createCall(users.poster, REWARD));
    }

    function testFuzz_StolenKey_AnyCalldataToToken(bytes calldata data) external {
        uint256 supply = usdc.totalSupply();
        uint256 posterBalance = usdc.balanceOf(users.poster);
        vm.prank(users.eve);
        try executor.execute(address(usdc), data) {
            fail();
        } catch {}
        assertEq(usdc.totalSupply(), supply, "supply");
        assertEq(usdc.balanceOf(users.poster), posterBalance, "poster untouched");
        assertEq(usdc.balanceOf(users.eve), FUNDS, "eve gained nothing");
    }
}
