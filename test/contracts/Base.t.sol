// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Test} from "forge-std/Test.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

import {GuildRegistry} from "contracts/GuildRegistry.sol";
import {IGuildRegistry} from "contracts/interfaces/IGuildRegistry.sol";
import {IMissionEscrow} from "contracts/interfaces/IMissionEscrow.sol";
import {IOperatorRegistry} from "contracts/interfaces/IOperatorRegistry.sol";
import {MissionEscrow} from "contracts/MissionEscrow.sol";
import {OperatorRegistry} from "contracts/OperatorRegistry.sol";
import {TestStablecoin} from "contracts/TestStablecoin.sol";
import {Errors} from "contracts/libraries/Errors.sol";
import {Missions, Disputes} from "contracts/types/DataTypes.sol";

/// @notice Shared base of the contract tests: the deployed marketplace, named actors and defaults.
/// Other suites (guilds, nft, reputation) extend it: keep names stable, add rather than change.
abstract contract Base is Test {
    struct Users {
        address admin;
        address poster;
        address performer;
        address resolver;
        address appealsResolver;
        address operator;
        address eve;
        address protocolTreasury;
        address labsTreasury;
        address guildAdmin;
        address guildTreasury;
    }

    /*//////////////////////////////////////////////////////////////
                                DEFAULTS
    //////////////////////////////////////////////////////////////*/

    uint256 internal constant REWARD = 100e6; // 100 USDC
    uint256 internal constant MAX_REWARD = type(uint48).max; // the escrow's MAX_REWARD
    uint256 internal constant DURATION = 30 days;
    uint16 internal constant GUILD_FEE_BPS = 500;
    uint256 internal constant FUNDS = 1e30; // enough for any fuzzed reward plus reserves
    uint256 internal constant START_TIME = 1_750_000_000; // June 2025
    bytes32 internal constant DETAILS_HASH = keccak256("details");
    bytes32 internal constant PROOF_HASH = keccak256("proof");
    bytes32 internal constant REASON_HASH = keccak256("reason");
    bytes32 internal constant EVIDENCE_HASH = keccak256("evidence");
    bytes32 internal constant RESOLUTION_HASH = keccak256("resolution");

    /*//////////////////////////////////////////////////////////////
                               CONTRACTS
    //////////////////////////////////////////////////////////////*/

    Users internal users;
    TestStablecoin internal usdc;
    OperatorRegistry internal operators;
    GuildRegistry internal guildRegistry;
    MissionEscrow internal escrow;
    uint32 internal guildId;

    function setUp() public virtual {
        vm.warp(START_TIME);
        users = Users({
            admin: makeAddr("Admin"),
            poster: makeAddr("Poster"),
            performer: makeAddr("Performer"),
            resolver: makeAddr("Resolver"),
            appealsResolver: makeAddr("AppealsResolver"),
            operator: makeAddr("Operator"),
            eve: makeAddr("Eve"),
            protocolTreasury: makeAddr("ProtocolTreasury"),
            labsTreasury: makeAddr("LabsTreasury"),
            guildAdmin: makeAddr("GuildAdmin"),
            guildTreasury: makeAddr("GuildTreasury")
        });

        usdc = new TestStablecoin(users.admin);
        operators = new OperatorRegistry();
        guildRegistry = new GuildRegistry(operators, users.admin);
        escrow = deployEscrow(address(usdc));

        vm.startPrank(users.admin);
        guildRegistry.setEscrow(escrow);
        escrow.grantRole(escrow.RESOLVER_ROLE(), users.resolver);
        escrow.grantRole(escrow.APPEALS_ROLE(), users.appealsResolver);
        vm.stopPrank();

        vm.prank(users.guildAdmin);
        guildId = guildRegistry.createGuild(
            users.guildAdmin, "builders", "Builders", "A guild", "dev", GUILD_FEE_BPS, users.guildTreasury
        );

        fund(users.poster);
        fund(users.performer);
        fund(users.eve);
    }

    /*//////////////////////////////////////////////////////////////
                                HELPERS
    //////////////////////////////////////////////////////////////*/

    function deployEscrow(address token) internal returns (MissionEscrow) {
        return new MissionEscrow(
            IERC20(token), operators, guildRegistry, users.admin, users.protocolTreasury, users.labsTreasury
        );
    }

    /// @dev What the escrow holds for others than the parties besides guild fees: the resolver pool and
    /// the protocol and labs fees not yet withdrawn (issue 40).
    function accruals() internal view returns (uint256) {
        (uint256 protocolFees, uint256 labsFees) = escrow.accruedFees();
        return escrow.resolverPool() + protocolFees + labsFees;
    }

    function fund(address account) internal {
        vm.prank(users.admin);
        usdc.mint(account, FUNDS);
        vm.prank(account);
        usdc.approve(address(escrow), type(uint256).max);
    }

    function createMission(uint256 reward, uint32 guildId_) internal returns (uint256 missionId) {
        vm.prank(users.poster);
        missionId = escrow.createMission(users.poster, reward, block.timestamp + DURATION, guildId_, DETAILS_HASH);
    }

    function createOpen() internal returns (uint256) {
        return createMission(REWARD, 0);
    }

    function createAccepted(uint256 reward, uint32 guildId_) internal returns (uint256 missionId) {
        missionId = createMission(reward, guildId_);
        vm.prank(users.performer);
        escrow.acceptMission(missionId, users.performer, DETAILS_HASH);
    }

    function createSubmitted(uint256 reward, uint32 guildId_) internal returns (uint256 missionId) {
        missionId = createAccepted(reward, guildId_);
        vm.prank(users.performer);
        escrow.submitProof(missionId, PROOF_HASH);
    }

    function createSubmitted() internal returns (uint256) {
        return createSubmitted(REWARD, 0);
    }

    /// @dev A Pending dispute raised by `initiator` on a fresh Submitted mission.
    function createDispute(uint256 reward, uint32 guildId_, address initiator) internal returns (uint256 disputeId) {
        uint256 missionId = createSubmitted(reward, guildId_);
        vm.prank(initiator);
        disputeId = escrow.raiseDispute(missionId, initiator, REASON_HASH);
    }

    function createDispute() internal returns (uint256) {
        return createDispute(REWARD, 0, users.poster);
    }

    function createInvestigating() internal returns (uint256 disputeId) {
        disputeId = createDispute();
        vm.prank(users.resolver);
        escrow.takeDispute(disputeId, users.resolver);
    }

    function resolve(uint256 disputeId, Disputes.Outcome outcome, uint8 split) internal {
        vm.prank(users.resolver);
        escrow.resolveDispute(disputeId, outcome, split, RESOLUTION_HASH);
    }

    function createResolved(Disputes.Outcome outcome, uint8 split) internal returns (uint256 disputeId) {
        disputeId = createInvestigating();
        resolve(disputeId, outcome, split);
    }

    function createAppealed(Disputes.Outcome outcome, uint8 split, address appellant)
        internal
        returns (uint256 disputeId)
    {
        disputeId = createResolved(outcome, split);
        vm.prank(appellant);
        escrow.appealDispute(disputeId, appellant);
    }

    function approveOperator(address user, address operator) internal {
        vm.prank(user);
        operators.setOperator(operator, true);
    }

    function missionOf(uint256 missionId) internal view returns (Missions.Mission memory) {
        return escrow.getMission(missionId);
    }

    function disputeOf(uint256 disputeId) internal view returns (Disputes.Dispute memory) {
        return escrow.getDispute(disputeId);
    }

    function window(Missions.Window w) internal view returns (uint256) {
        return escrow.windowOf(w);
    }

    function assertEq(Missions.State a, Missions.State b, string memory err) internal pure {
        assertEq(uint8(a), uint8(b), err);
    }

    function assertEq(Disputes.State a, Disputes.State b, string memory err) internal pure {
        assertEq(uint8(a), uint8(b), err);
    }

    function assertEq(Disputes.Outcome a, Disputes.Outcome b, string memory err) internal pure {
        assertEq(uint8(a), uint8(b), err);
    }
}


