// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Base} from "../Base.t.sol";
import {Errors} from "contracts/libraries/Errors.sol";
import {Missions} from "contracts/types/DataTypes.sol";

/// @notice Slot 1 of a mission holds its terms while Open and the performer's record after (Missions.Record).
/// The poster chooses the terms hash, so these tests post one whose bits, read as a record, would name Eve
/// the performer, set `parts`, a far review deadline and a guild: no call and no view may take them as one.
contract TermsSlot_Test is Base {
    bytes32 internal crafted;

    function setUp() public override {
        super.setUp();
        crafted = bytes32(
            uint256(uint160(users.eve)) // performer
                | (uint256(type(uint32).max) << 160) // reviewDeadline
                | (uint256(1000) << 192) // guildFeeBps
                | (uint256(guildId) << 208) // guildId
                | (uint256(1) << 240) // parts
                | (uint256(0xff) << 248)
        );
    }

    function createCrafted() internal returns (uint256 missionId) {
        vm.prank(users.poster);
        missionId = escrow.createMission(users.poster, REWARD, block.timestamp + DURATION, 0, crafted);
    }

    function test_OpenMission_ViewsShowNoRecord() external {
        uint256 id = createCrafted();
        Missions.Mission memory m = missionOf(id);
        assertEq(m.detailsHash, crafted, "the terms, while Open");
        assertEq(m.performer, address(0), "no performer");
        assertEq(m.reviewDeadline, 0, "no review deadline");
        assertEq(m.guildId, 0, "no guild");
        assertEq(m.guildFeeBps, 0, "no guild fee");
        assertEq(m.released + m.refunded, 0, "no parts");
        assertEq(escrow.remainingOf(id), REWARD, "the whole reward (parts not read from the terms)");
    }

    function test_OpenMission_TermsGiveNoPartyRights() external {
        uint256 id = createCrafted();
        vm.startPrank(users.eve);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NotPerformer.selector, id, users.eve));
        escrow.submitProof(id, PROOF_HASH);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NotParty.selector, id, users.eve));
        escrow.raiseDispute(id, users.eve, REASON_HASH);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NotParty.selector, id, users.eve));
        escrow.offerSettlement(id, users.eve, 1);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NotPerformer.selector, id, users.eve));
        escrow.refundPartial(id, 1);
        vm.stopPrank();
        vm.prank(users.poster);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_InvalidState.selector, id, Missions.State.Open));
        escrow.releasePartial(id, 1);
    }

    function test_ExpireOpen_RefundsTheRewardAndClearsTheTerms() external {
        uint256 id = createCrafted();
        uint256 before = usdc.balanceOf(users.poster);
        vm.warp(block.timestamp + DURATION);
        assertEq(escrow.expireMission(id), REWARD, "refund: the reward, not a remainder read from the terms");
        assertEq(usdc.balanceOf(users.poster), before + REWARD, "poster refunded");
        Missions.Mission memory m = missionOf(id);
        assertEq(uint8(m.state), uint8(Missions.State.Expired), "expired");
        assertEq(m.detailsHash, 0, "terms cleared");
        assertEq(m.performer, address(0), "no performer");
        assertEq(escrow.remainingOf(id), 0, "nothing held");
    }

    function test_CancelOpen_ClearsTheTerms() external {
        uint256 id = createCrafted();
        vm.prank(users.poster);
        assertEq(escrow.cancelMission(id), REWARD, "refund");
        Missions.Mission memory m = missionOf(id);
        assertEq(uint8(m.state), uint8(Missions.State.Cancelled), "cancelled");
        assertEq(m.detailsHash, 0, "terms cleared");
        assertEq(m.performer, address(0), "no performer");
        vm.prank(users.eve);
        vm.expectRevert(abi.encodeWithSelector(Errors.MissionEscrow_NotPerformer.selector, id, users.eve));
        escrow.submitProof(id, PROOF_HASH);
    }

    /// @dev Acceptance replaces the terms by the record as a whole word: none of the crafted bits survive.
    function test_Accept_WritesTheWholeRecord() external {
        uint256 id = createCrafted();
        uint256 expiresAt = missionOf(id).expiresAt;
        vm.prank(users.performer);
        escrow.acceptMission(id, users.performer, crafted);
        Missions.Mission memory m = missionOf(id);
        assertEq(m.performer, users.performer, "performer");
        assertEq(m.reviewDeadline, 0, "0 until proof");
        assertEq(m.guildId, 0, "no guild");
        assertEq(m.guildFeeBps, 0, "no guild fee");
        assertEq(m.detailsHash, 0, "terms final: in the events");
        assertEq(escrow.remainingOf(id), REWARD, "no parts");
        vm.prank(users.performer);
        escrow.submitProof(id, PROOF_HASH);
        assertEq(missionOf(id).reviewDeadline, block.timestamp + 7 days, "review deadline");
        assertLt(block.timestamp, expiresAt, "submitted before the expiry");
        uint256 performerBefore = usdc.balanceOf(users.performer);
        vm.prank(users.poster);
        Missions.Settlement memory s = escrow.approveMission(id);
        assertEq(s.guildAmount, 0, "no guild fee taken");
        assertEq(usdc.balanceOf(users.performer), performerBefore + s.performerAmount, "performer paid");
        assertEq(s.performerAmount, REWARD - REWARD * 350 / 10_000, "96.5 %");
    }

    /// @dev A guild mission's guild and fee wait in slot 2 until acceptance copies them into the record.
    function test_GuildMission_FeeSurvivesTheRecord() external {
        uint256 id = createMission(REWARD, guildId);
        Missions.Mission memory open = missionOf(id);
        assertEq(open.guildId, guildId, "guild while Open");
        assertEq(open.guildFeeBps, GUILD_FEE_BPS, "fee while Open");
        vm.prank(users.performer);
        escrow.acceptMission(id, users.performer, DETAILS_HASH);
        vm.prank(users.performer);
        escrow.submitProof(id, PROOF_HASH);
        Missions.Mission memory m = missionOf(id);
        assertEq(m.guildId, guildId, "guild after");
        assertEq(m.guildFeeBps, GUILD_FEE_BPS, "fee after");
        vm.prank(users.poster);
        Missions.Settlement memory s = escrow.approveMission(id);
        assertEq(s.guildAmount, REWARD * GUILD_FEE_BPS / 10_000, "the guild's fee");
        assertEq(escrow.guildFees(guildId), s.guildAmount, "accrued to the guild");
    }
}
