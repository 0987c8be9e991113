// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {CommonBase} from "forge-std/Base.sol";
import {StdCheats} from "forge-std/StdCheats.sol";
import {StdUtils} from "forge-std/StdUtils.sol";
import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";

import {MissionEscrow} from "contracts/MissionEscrow.sol";
import {OperatorRegistry} from "contracts/OperatorRegistry.sol";
import {RelayerExecutor} from "contracts/RelayerExecutor.sol";
import {TestStablecoin} from "contracts/TestStablecoin.sol";
import {IGuildRegistry} from "contracts/interfaces/IGuildRegistry.sol";
import {IMissionEscrow} from "contracts/interfaces/IMissionEscrow.sol";
import {IOperatorRegistry} from "contracts/interfaces/IOperatorRegistry.sol";
import {Missions} from "contracts/types/DataTypes.sol";

/// @notice The actors, keys and calls of the executor campaign: what a thief holding a pool key would send
/// (kinds 9–17) mixed with the service's own calls (kinds 0–8).
abstract contract ExecutorCalls is CommonBase, StdCheats, StdUtils {
    uint256 internal constant KINDS = 18;
    uint256 internal constant MAX_KEYS = 8;

    RelayerExecutor public immutable executor;
    MissionEscrow public immutable escrow;
    TestStablecoin public immutable usdc;
    OperatorRegistry public immutable operators;
    address public immutable guilds;
    address public immutable admin;
    address public immutable guildAdmin;
    uint32 public immutable guildId;
    address[] public actors;
    address[] public keys;
    bytes4[] internal serviceSelectors;

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
    ) {
        executor = executor_;
        escrow = escrow_;
        usdc = usdc_;
        operators = operators_;
        guilds = guilds_;
        admin = admin_;
        guildAdmin = guildAdmin_;
        guildId = guildId_;
        actors = actors_;
        keys = keys_;
        serviceSelectors = serviceSelectors_;
    }

    function keyCount() external view returns (uint256) {
        return keys.length;
    }

    function actorCount() external view returns (uint256) {
        return actors.length;
    }

    /*//////////////////////////////////////////////////////////////
                                 CALLS
    //////////////////////////////////////////////////////////////*/

    function activeKeys() internal view returns (uint256 n) {
        bytes32 role = executor.RELAYER_ROLE();
        for (uint256 i; i < keys.length; ++i) {
            if (executor.hasRole(role, keys[i])) ++n;
        }
    }

    /// @dev One time in eight any key (revoked ones too); otherwise the first active key from the seed on.
    function pickKey(uint256 seed) internal view returns (address) {
        uint256 start = seed % keys.length;
        if (seed % 8 == 0) return keys[start];
        bytes32 role = executor.RELAYER_ROLE();
        for (uint256 i; i < keys.length; ++i) {
            address k = keys[(start + i) % keys.length];
            if (executor.hasRole(role, k)) return k;
        }
        return keys[start];
    }

    /// @dev One call in four is any kind on any recent mission; otherwise the service's next step for the
    /// newest mission (create, accept or cancel, submit, approve or claim), so missions really settle.
    /// Returns the kind and whether it targets the newest mission.
    function pickKind(uint256 seed) internal view returns (uint256, bool) {
        uint256 r = seed / 4;
        if (seed % 4 == 0) return (r % KINDS, false);
        uint256 count = escrow.missionCount();
        if (count == 0 || seed % 4 == 1) return (0, true);
        Missions.State st = escrow.getMission(count).state;
        if (st == Missions.State.Open) return (r % 4 == 0 ? 4 : 1, true);
        if (st == Missions.State.Accepted) return (2, true);
        if (st == Missions.State.Submitted) return (r % 4 == 0 ? 6 : 3, true);
        return (r % 2 == 0 ? 0 : 7, true);
    }

    /// @dev Kinds 0–8 are the service's own calls; 9–17 are what a thief would try.
    function build(uint256 kind, uint256 a, uint256 b, address key, bool newest)
        internal
        view
        returns (address target, bytes memory data)
    {
        address actor = actors[a % actors.length];
        uint256 count = escrow.missionCount();
        // Mostly one of the three newest missions, which are the likeliest to be able to move.
        uint256 back = count < 3 ? count : 3;
        uint256 mid = count == 0 ? 1 : (b % 4 == 0 ? 1 + (b % count) : count - (b % back));
        if (newest && count > 0) mid = count;
        if (kind == 1 && count > 0 && escrow.getMission(mid).poster == actor) {
            actor = actors[(a % actors.length + 1) % actors.length]; // a poster cannot perform their own mission
        }
        target = address(escrow);
        if (kind == 0) {
            uint256 reward = bound(b, 1, 1e12);
            data = abi.encodeCall(
                IMissionEscrow.createMission,
                (actor, reward, block.timestamp + 30 days, uint32(0), keccak256("d"))
            );
        } else if (kind == 1) {
            data = abi.encodeCall(IMissionEscrow.acceptMission, (mid, actor, keccak256("d")));
        } else if (kind == 2) {
            data = abi.encodeCall(IMissionEscrow.submitProof, (mid, keccak256("p")));
        } else if (kind == 3) {
            data = abi.encodeCall(IMissionEscrow.approveMission, (mid));
        } else if (kind == 4) {
            data = abi.encodeCall(IMissionEscrow.cancelMission, (mid));
        } else if (kind == 5) {
            data = abi.encodeCall(IMissionEscrow.expireMission, (mid));
        } else if (kind == 6) {
            data = abi.encodeCall(IMissionEscrow.claimAfterReview, (mid));
        } else if (kind == 7) {
            address[3] memory who = [actor, key, address(executor)];
            data = abi.encodeCall(IMissionEscrow.withdraw, (who[b % 3]));
        } else if (kind == 8) {
            target = address(operators);
            data = abi.encodeCall(IOperatorRegistry.renounceOperator, (actor));
        } else if (kind == 9) {
            target = address(usdc);
            data = abi.encodeCall(usdc.transferFrom, (actor, key, bound(b, 1, 1e12)));
        } else if (kind == 10) {
            target = address(usdc);
            data = abi.encodeCall(usdc.transfer, (key, bound(b, 1, 1e12)));
        } else if (kind == 11) {
            data = abi.encodeCall(IMissionEscrow.setTreasuries, (key, key));
        } else if (kind == 12) {
            target = address(operators);
            data = abi.encodeCall(IOperatorRegistry.setOperator, (key, true));
        } else if (kind == 13) {
            target = address(executor);
            data = abi.encodeCall(IAccessControl.grantRole, (executor.RELAYER_ROLE(), key));
        } else if (kind == 14) {
            data = abi.encodeCall(IMissionEscrow.acceptMission, (mid, address(executor), keccak256("d")));
        } else if (kind == 15) {
            data = abi.encodeCall(
                IMissionEscrow.createMission,
                (key, bound(b, 1, 1e12), block.timestamp + 30 days, uint32(0), keccak256("d"))
            );
        } else if (kind == 16) {
            target = guilds;
            data = abi.encodeCall(IGuildRegistry.updateGuildSettings, (guildId, guildAdmin, uint16(0), key));
        } else {
            target = address(uint160(uint256(keccak256(abi.encode(a)))));
            data = abi.encodePacked(bytes4(uint32(b)), a);
        }
    }
}
