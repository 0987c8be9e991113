// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Missions, Disputes} from "../types/DataTypes.sol";

/// @title SettlementMath
/// @notice The pure money math of the escrow (docs/decisions.md, "Money and fees", "Disputes" and "Money
/// in trouble (contracts)"). Every share rounds down and one party gets the remainder, so the parts always
/// sum exactly to the whole.
library SettlementMath {
    uint256 internal constant BPS = 10_000;
    uint256 internal constant PROTOCOL_FEE_BPS = 250;
    uint256 internal constant LABS_FEE_BPS = 100;
    /// @dev The resolver pool's part of the protocol share (20 % of it, i.e. 0.5 % of the amount settled).
    uint256 internal constant RESOLVER_POOL_BPS = 2000;
    /// @dev What a deciding resolver is paid from the pool per decision: 5 USDC (less if the pool holds less).
    uint256 internal constant RESOLVER_DECISION_FEE = 5_000_000;
    uint256 internal constant RESERVE_BPS = 500;
    uint256 internal constant MIN_RESERVE = 1_000_000;

    /// @dev What happened to an appeal, for the LPP.
    enum Appeal {
        None,
        Upheld,
        Overturned,
        Undecided
    }

    /// @dev Everything the dispute payout depends on.
    struct DisputeTerms {
        uint256 reward; // the mission's remainder when it was disputed
        uint256 ddr;
        uint256 lpp;
        uint16 guildFeeBps;
        Disputes.Outcome outcome;
        uint256 performerPart; // Split only: the part of `reward` settled to the performer
        bool initiatorIsPoster;
        Appeal appeal;
        bool appellantIsPoster;
    }

    /// @dev `amount * bps / BPS`, rounded down.
    function bpsOf(uint256 amount, uint256 bps) internal pure returns (uint256) {
        return amount * bps / BPS;
    }

    /// @dev The DDR or LPP of a mission with `reward` (its remainder): 5 %, at least MIN_RESERVE.
    function reserveFor(uint256 reward) internal pure returns (uint256) {
        uint256 reserve = bpsOf(reward, RESERVE_BPS);
        return reserve < MIN_RESERVE ? MIN_RESERVE : reserve;
    }

    /// @dev The five shares of settling `amount` to the performer: protocol, labs and guild shares round
    /// down, the pool's part of the protocol share rounds down (the treasury gets the rest of it), the
    /// performer gets the remainder.
    function settle(uint256 amount, uint16 guildFeeBps) internal pure returns (Missions.Settlement memory s) {
        uint256 protocolShare = bpsOf(amount, PROTOCOL_FEE_BPS);
        s.resolverAmount = bpsOf(protocolShare, RESOLVER_POOL_BPS);
        s.protocolAmount = protocolShare - s.resolverAmount;
        s.labsAmount = bpsOf(amount, LABS_FEE_BPS);
        s.guildAmount = bpsOf(amount, guildFeeBps);
        s.performerAmount = amount - protocolShare - s.labsAmount - s.guildAmount;
    }

    /// @dev The performer's part of `reward` for a Split of `splitPercentage`, rounded down.
    function splitPart(uint256 reward, uint8 splitPercentage) internal pure returns (uint256) {
        return reward * splitPercentage / 100;
    }

    /// @dev `performerAmount` of `reward` in percent, rounded half up (display only; 0..100).
    function percentOf(uint256 performerAmount, uint256 reward) internal pure returns (uint8) {
        return uint8((performerAmount * 200 + reward) / (2 * reward));
    }

    /// @dev Where every token held for a disputed mission goes. The shares sum to reward + ddr + lpp,
    /// with the pool's inflow in `poolAmount`; `resolverAmount` (paid from the pool) is left to the caller.
    function disputePayout(DisputeTerms memory t) internal pure returns (Disputes.Payout memory p) {
        // The reward: fees only on the performer's part (a refund to the poster is not revenue).
        uint256 performerPart;
        if (t.outcome == Disputes.Outcome.PerformerWins) performerPart = t.reward;
        else if (t.outcome == Disputes.Outcome.Split) performerPart = t.performerPart;
        p.posterAmount = t.reward - performerPart;
        Missions.Settlement memory s = settle(performerPart, t.guildFeeBps);
        p.performerAmount = s.performerAmount;
        p.protocolAmount = s.protocolAmount;
        p.labsAmount = s.labsAmount;
        p.guildAmount = s.guildAmount;
        p.poolAmount = s.resolverAmount;

        // The DDR: refunded to the initiator unless the initiator lost; then it goes to the winner.
        bool posterWon = t.outcome == Disputes.Outcome.PosterWins;
        bool performerWon = t.outcome == Disputes.Outcome.PerformerWins;
        bool initiatorLost = t.initiatorIsPoster ? performerWon : posterWon;
        if (t.initiatorIsPoster != initiatorLost) p.posterAmount += t.ddr;
        else p.performerAmount += t.ddr;

        // The LPP: to the other party when the appeal was upheld, else back to the appellant.
        if (t.lpp != 0) {
            bool toPoster = t.appeal == Appeal.Upheld ? !t.appellantIsPoster : t.appellantIsPoster;
            if (toPoster) p.posterAmount += t.lpp;
            else p.performerAmount += t.lpp;
        }
    }
}
