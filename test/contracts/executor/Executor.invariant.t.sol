// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ExecutorBase} from "./ExecutorBase.t.sol";
import {ExecutorHandler} from "./handlers/ExecutorHandler.sol";

/// @notice With every pool key in a thief's hands: tokens only ever sit with the users, the escrow and the
/// treasuries the escrow's rules name; a revoked key never forwards; nothing outside the allowlist is ever
/// called; the executor never holds funds; no key ever gains a role or an operator approval.
/// @dev The handler catches every refusal itself (counted in `refused`), so forge sees no reverts.
/// forge-config: default.invariant.runs = 200
/// forge-config: default.invariant.depth = 100
/// forge-config: default.invariant.fail_on_revert = true
/// forge-config: default.invariant.show_metrics = true
/// forge-config: default.invariant.dictionary.include_storage = false
contract Executor_Invariant_Test is ExecutorBase {
    ExecutorHandler internal handler;
    address[] internal actors;
    address[] internal holders; // every address the escrow's rules may pay, plus the untouched Eve

    function setUp() public override {
        super.setUp();
        actors.push(users.poster);
        actors.push(users.performer);
        for (uint256 i; i < 2; ++i) {
            address a = makeAddr(string.concat("User", vm.toString(i)));
            fund(a);
            vm.prank(a);
            operators.setOperator(address(executor), true);
            actors.push(a);
        }
        // The guild admin uses the service too, so only the allowlist keeps keys off the guild's settings.
        vm.prank(users.guildAdmin);
        operators.setOperator(address(executor), true);
        address[] memory keys = new address[](2);
        keys[0] = key0;
        keys[1] = key1;
        handler = new ExecutorHandler(
            executor,
            escrow,
            usdc,
            operators,
            address(guildRegistry),
            users.admin,
            users.guildAdmin,
            guildId,
            actors,
            keys,
            serviceEscrowSelectors()
        );
        for (uint256 i; i < actors.length; ++i) {
            holders.push(actors[i]);
        }
        holders.push(users.eve);
        holders.push(address(escrow));
        holders.push(users.protocolTreasury);
        holders.push(users.labsTreasury);
        holders.push(users.guildTreasury);
        holders.push(users.resolver);

        targetContract(address(handler));
        bytes4[] memory actions = new bytes4[](7);
        actions[0] = ExecutorHandler.addKey.selector;
        actions[1] = ExecutorHandler.revokeKey.selector;
        actions[2] = ExecutorHandler.setAllowed.selector;
        actions[3] = ExecutorHandler.reapprove.selector;
        actions[4] = ExecutorHandler.warp.selector;
        actions[5] = ExecutorHandler.forward.selector;
        actions[6] = ExecutorHandler.forwardBatch.selector;
        targetSelector(FuzzSelector({addr: address(handler), selectors: actions}));
    }

    function invariant_TokensOnlyWithPartiesTheRulesName() external view {
        uint256 held;
        for (uint256 i; i < holders.length; ++i) {
            held += usdc.balanceOf(holders[i]);
        }
        assertEq(held, usdc.totalSupply(), "some tokens left the users, the escrow and the treasuries");
    }

    function invariant_ExecutorAndKeysHoldNothing() external view {
        assertEq(usdc.balanceOf(address(executor)), 0, "executor tokens");
        assertEq(address(executor).balance, 0, "executor ether");
        assertEq(escrow.credits(address(executor)), 0, "executor credits");
        for (uint256 i; i < handler.keyCount(); ++i) {
            address k = handler.keys(i);
            assertEq(usdc.balanceOf(k), 0, "key tokens");
            assertEq(escrow.credits(k), 0, "key credits");
        }
    }

    function invariant_RevokedKeysNeverForward() external view {
        assertEq(handler.forwardsByInactiveKey(), 0, "a key without RELAYER_ROLE forwarded");
    }

    function invariant_OnlyAllowlistedCalls() external view {
        assertEq(handler.forwardsOutsideAllowlist(), 0, "a call outside the allowlist went through");
    }

    /// @dev Token transfers, admin functions, the executor itself, the executor as a party, a non-approving
    /// poster, guild settings, unknown targets: none ever goes through.
    function invariant_ThiefCallsNeverSucceed() external view {
        assertEq(handler.hostileSuccesses(), 0, "a thief's call went through");
    }

    function invariant_KeysGainNoPower() external view {
        assertTrue(executor.hasRole(executor.DEFAULT_ADMIN_ROLE(), users.admin), "admin kept");
        assertEq(escrow.protocolTreasury(), users.protocolTreasury, "protocol treasury");
        assertEq(guildRegistry.guildTreasury(guildId), users.guildTreasury, "guild treasury");
        for (uint256 i; i < handler.keyCount(); ++i) {
            address k = handler.keys(i);
            assertFalse(executor.hasRole(executor.DEFAULT_ADMIN_ROLE(), k), "key became admin");
            assertFalse(executor.hasRole(executor.PAUSER_ROLE(), k), "key became pauser");
            assertFalse(operators.isOperator(k, address(executor)), "executor acts for a key");
            assertFalse(operators.isOperator(address(executor), k), "a key acts for the executor");
            for (uint256 j; j < actors.length; ++j) {
                assertFalse(operators.isOperator(actors[j], k), "a key became a user's operator");
            }
        }
    }

    /// @dev The handler's success path works (a forward it counts is a real one), so the zero ghosts mean
    /// something.
    function test_HandlerCountsARealForward() external {
        handler.forward(0, 0, 0, REWARD);
        assertEq(handler.forwards(), 1, "forwarded");
        assertEq(escrow.missionCount(), 1, "mission created for a user");
        handler.revokeKey(0);
        handler.forward(0, 0, 0, REWARD);
        assertEq(handler.refused(), 1, "revoked key refused");
    }
}
