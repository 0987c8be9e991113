// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {MissionEscrow} from "contracts/MissionEscrow.sol";
import {OperatorRegistry} from "contracts/OperatorRegistry.sol";
import {RelayerExecutor} from "contracts/RelayerExecutor.sol";
import {TestStablecoin} from "contracts/TestStablecoin.sol";
import {IRelayerExecutor} from "contracts/interfaces/IRelayerExecutor.sol";

import {ExecutorCalls} from "./ExecutorCalls.sol";

/// @notice Every pool key is treated as stolen: the handler forwards any mix of legitimate and hostile
/// calls (token transfers, admin functions, the executor itself, the executor as a party, unknown targets)
/// from active and revoked keys, while the admin rotates keys and edits the allowlist. A forward that
/// succeeds is checked against what the key and the allowlist were just before it.
contract ExecutorHandler is ExecutorCalls {
    // Ghosts: the invariants require the first three to stay zero.
    uint256 public forwardsByInactiveKey;
    uint256 public forwardsOutsideAllowlist;
    uint256 public hostileSuccesses; // a thief's call (kinds 9–17) that went through
    uint256 public forwards;
    uint256 public refused;

    constructor(
        RelayerExecutor executor_,
        MissionEscrow escrow_,
        TestStablecoin usdc_,
        OperatorRegistry operators_,
        address guilds_,
        address admin_,
        address guildAdmin_,
        uint32 guildId_,
        address[] memory actors_,
        address[] memory keys_,
        bytes4[] memory serviceSelectors_
    )
        ExecutorCalls(
            executor_,
            escrow_,
            usdc_,
            operators_,
            guilds_,
            admin_,
            guildAdmin_,
            guildId_,
            actors_,
            keys_,
            serviceSelectors_
        )
    {}

    /*//////////////////////////////////////////////////////////////
                                 ACTIONS
    //////////////////////////////////////////////////////////////*/

    function addKey() external {
        if (keys.length >= MAX_KEYS) return;
        address k = address(uint160(0xBEEF0000 + keys.length));
        keys.push(k);
        bytes32 role = executor.RELAYER_ROLE();
        vm.prank(admin);
        executor.grantRole(role, k);
    }

    /// @dev Keeps one key active so forwarding goes on (rotation, not shutdown; pausing is tested apart).
    function revokeKey(uint256 seed) external {
        address k = keys[seed % keys.length];
        bytes32 role = executor.RELAYER_ROLE();
        if (activeKeys() < 2) return;
        vm.prank(admin);
        executor.revokeRole(role, k);
    }

    /// @dev Disallows a service selector one time in four, re-allows it otherwise.
    function setAllowed(uint256 seed, uint256 on) external {
        bytes4 sel = serviceSelectors[seed % serviceSelectors.length];
        vm.prank(admin);
        executor.setAllowed(address(escrow), sel, on % 4 != 0);
    }

    function reapprove(uint256 seed) external {
        vm.prank(actors[seed % actors.length]);
        operators.setOperator(address(executor), true);
    }

    function warp(uint256 seconds_) external {
        skip(bound(seconds_, 0, 10 days));
    }

    function forward(uint256 keySeed, uint256 kind, uint256 a, uint256 b) external {
        address key = pickKey(keySeed);
        bool newest;
        (kind, newest) = pickKind(kind);
        (address target, bytes memory data) = build(kind, a, b, key, newest);
        bool active = executor.hasRole(executor.RELAYER_ROLE(), key);
        bool allowed = data.length >= 4 && executor.isAllowed(target, bytes4(data));
        vm.prank(key);
        try executor.execute(target, data) {
            ++forwards;
            if (!active) ++forwardsByInactiveKey;
            if (!allowed) ++forwardsOutsideAllowlist;
            if (kind >= 9) ++hostileSuccesses;
        } catch {
            ++refused;
        }
    }

    function forwardBatch(uint256 keySeed, uint256 kind0, uint256 kind1, uint256 a, uint256 b) external {
        address key = pickKey(keySeed);
        bool newest0;
        bool newest1;
        (kind0, newest0) = pickKind(kind0);
        (kind1, newest1) = pickKind(kind1);
        IRelayerExecutor.Call[] memory calls = new IRelayerExecutor.Call[](2);
        (calls[0].target, calls[0].data) = build(kind0, a, b, key, newest0);
        (calls[1].target, calls[1].data) = build(kind1, b, a, key, newest1);
        bool active = executor.hasRole(executor.RELAYER_ROLE(), key);
        bool allowed = true;
        for (uint256 i; i < 2; ++i) {
            bytes memory d = calls[i].data;
            allowed = allowed && d.length >= 4 && executor.isAllowed(calls[i].target, bytes4(d));
        }
        vm.prank(key);
        try executor.executeBatch(calls) {
            forwards += 2;
            if (!active) ++forwardsByInactiveKey;
            if (!allowed) ++forwardsOutsideAllowlist;
            if (kind0 >= 9 || kind1 >= 9) ++hostileSuccesses;
        } catch {
            ++refused;
        }
    }
}
