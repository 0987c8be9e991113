// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Missions, Disputes} from "../types/DataTypes.sol";

/// @title SettlementMath
/// @notice The pure money math of the escrow (docs/decisions.md, "Money and fees" and "Disputes").
/// Every share rounds down and one party gets the remainder, so the parts always sum exactly to the whole.
library SettlementMath {
    uint256 internal constant BPS = 10_000;
    uint256 internal constant PROTOCOL_FEE_BPS = 250;
    uint256 internal constant LABS_FEE_BPS = 100;
    uint256 internal constant RESOLVER_FEE_BPS = 200;
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
        uint256 reward;
        uint256 ddr;
        uint256 lpp;
        uint16 guildFeeBps;
        Disputes.Outcome outcome;
        uint8 splitPercentage;
        bool resolverFee; // a resolver decided (false on the default outcome)
        bool initiatorIsPoster;
        Appeal appeal;
        bool appellantIsPoster;
    }

    /// @dev `amount * bps / BPS`, rounded down.
    function bpsOf(uint256 amount, uint256 bps) internal pure returns (uint256) {
        return amount * bps / BPS;
    }

    /// @dev The DDR or LPP of a mission with `reward`: 5 %, at least MIN_RESERVE.
    function reserveFor(uint256 reward) internal pure returns (uint256) {
        uint256 reserve = bpsOf(reward, RESERVE_BPS);
        return reserve < MIN_RESERVE ? MIN_RESERVE : reserve;
    }

    /// @dev The five shares of an approval: fees round down, the performer gets the remainder.
    function settle(uint256 reward, uint16 guildFeeBps) internal pure returns (Missions.Settlement memory s) {
        s.protocolAmount = bpsOf(reward, PROTOCOL_FEE_BPS);
        s.labsAmount = bpsOf(reward, LABS_FEE_BPS);
        s.guildAmount = bpsOf(reward, guildFeeBps);
        s.performerAmount = reward - s.protocolAmount - s.labsAmount - s.guildAmount;
    }

    /// @dev Where every token held for a disputed mission goes. The shares sum to reward + ddr + lpp.
    function disputePayout(DisputeTerms memory t) internal pure returns (Disputes.Payout memory p) {
        p.resolverAmount = t.resolverFee ? bpsOf(t.reward, RESOLVER_FEE_BPS) : 0;
        uint256 net = t.reward - p.resolverAmount;

        // The reward: fees only on the performer's part (a refund to the poster is not revenue).
        uint256 performerPart;
        if (t.outcome == Disputes.Outcome.PerformerWins) performerPart = net;
        else if (t.outcome == Disputes.Outcome.Split) performerPart = net * t.splitPercentage / 100;
        p.posterAmount = net - performerPart;
        Missions.Settlement memory s = settle(performerPart, t.guildFeeBps);
        p.performerAmount = s.performerAmount;
        p.protocolAmount = s.protocolAmount;
        p.labsAmount = s.labsAmount;
        p.guildAmount = s.guildAmount;

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
