// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

/// @notice Types of the mission escrow. The names are the marketplace's own words (see the API spec).
library Missions {
    /// @dev The seven states of the spec, in the spec's order. Terminal: Completed, Cancelled, Expired.
    enum State {
        Open,
        Accepted,
        Submitted,
        Completed,
        Cancelled,
        Expired,
        Disputed
    }

    /// @dev The admin-settable time windows of the escrow (`IMissionEscrow.setWindow`). A window is read
    /// when a deadline is set, so changing it never moves a deadline already in flight.
    enum Window {
        Review,
        Resolution,
        Appeal,
        AppealDecision,
        DisputeTimeout
    }

    /// @dev A mission as `getMission` returns it (stored as `Record`). `reward` is in the stablecoin's base
    /// units (6 decimals), at most MAX_REWARD (2**48 - 1: 281,474,976.710655 whole units). `guildFeeBps` is
    /// snapshotted at creation so a guild cannot raise its fee on a mission already in flight.
    /// `reviewDeadline` is 0 until proof is submitted. `detailsHash` is the terms while the mission is Open
    /// and 0 once it left Open (its terms are then final: the last MissionCreated or MissionDetailsUpdated).
    /// `released` and `refunded` are what `releasePartial` and `refundPartial` moved (gross, before fees);
    /// the final settlement (approve, claim, expiry, dispute, settlement offer) does not add to them. What
    /// the escrow still holds for an unfinished mission is `reward - released - refunded`
    /// (`remainingOf`). Appended last so that decoders of the older fields keep their positions.
    struct Mission {
        address poster;
        uint64 reward;
        uint32 guildId;
        address performer;
        uint32 expiresAt;
        uint32 reviewDeadline;
        State state;
        uint16 guildFeeBps;
        bytes32 detailsHash;
        uint64 released;
        uint64 refunded;
    }

    /// @dev How the escrow stores a mission (`Mission` is what `getMission` returns). Three slots, one of
    /// them reused (issue 40, G1):
    /// - Slot 0: the poster, the reward, the expiry, the state and whether the mission is in a guild:
    ///   everything each step checks first, in one cold read. `reward` is 48 bits (MAX_REWARD).
    /// - Slot 1 holds the terms (`detailsHash`, read and written in assembly: `MissionEscrowState._terms`)
    ///   while the mission is Open, and the performer's record (the fields below) from the moment it leaves
    ///   Open: acceptance overwrites the terms it has just checked with the record, one non-zero to non-zero
    ///   write instead of a new slot (accept −16,300 gas: a new slot is 22,100, a rewrite 2,900 + the cold
    ///   read the terms check did anyway). Cancelling or expiring an Open mission clears it. So slot 1 is
    ///   the record exactly when `state != Open`: read a record field only after checking the state
    ///   (`_performerOf`, `_remainder`). The terms are then final and live in the events (MissionCreated,
    ///   MissionDetailsUpdated); `getMission` shows them while Open and 0 after.
    /// - Slot 2: the guild and its fee as posted (a guild mission only, written at creation; acceptance
    ///   copies them into the record, where settlements read them), and `released`/`refunded`, written only
    ///   by a partial release or refund, which also sets `parts`: every other step reads them only when
    ///   `parts` is set, so a plain lifecycle outside a guild never touches slot 2.
    /// While the mission is Accepted, `reviewDeadline` holds a copy of `expiresAt` (written by acceptance
    /// in the same word), so that submit needs no other field of slot 0 than the state; submit replaces it
    /// by the review deadline, and every other way out of Accepted (expiry, the whole remainder released or
    /// refunded) sets it to 0. `getMission` shows 0 while Accepted: 0 until proof is submitted.
    struct Record {
        // slot 0
        address poster;
        uint48 reward;
        uint32 expiresAt;
        State state;
        bool inGuild;
        // slot 1: the terms while Open (see above), else:
        address performer;
        uint32 reviewDeadline; // Accepted: the expiry (see above)
        uint16 guildFeeBps;
        uint32 guildId;
        bool parts; // a partial release or refund happened: `released`/`refunded` are not zero
        // slot 2
        uint32 postedGuildId;
        uint16 postedGuildFeeBps;
        uint64 released;
        uint64 refunded;
    }

    /// @dev The two open settlement offers of a mission, one slot: each party's amount for the performer
    /// (0 is a valid offer, hence the flags).
    struct Offers {
        bool posterOffered;
        uint64 posterPerformerAmount;
        bool performerOffered;
        uint64 performerPerformerAmount;
    }

    /// @dev What the escrow accrues for others than the parties, in one slot, so that a settlement adds
    /// the pool's share and both service fees with one SSTORE (issue 40): the resolver pool, and the
    /// protocol and labs fees owed to their treasuries until someone calls `withdrawFees`. uint80 holds
    /// 1.2e18 whole units; the additions are checked.
    struct Accruals {
        uint96 resolverPool;
        uint80 protocolFees;
        uint80 labsFees;
    }

    /// @dev The five shares of the spec's settlement. They always sum exactly to the amount settled.
    /// `protocolAmount` is the protocol treasury's part of the protocol share; `resolverAmount` is the
    /// rest of that share (RESOLVER_POOL_BPS of it), added to the resolver pool. The protocol and labs
    /// amounts accrue in the escrow (`Accruals`) until `withdrawFees` pays them to the treasuries.
    struct Settlement {
        uint256 performerAmount;
        uint256 protocolAmount;
        uint256 guildAmount;
        uint256 labsAmount;
        uint256 resolverAmount;
    }
}

/// @notice Types of the dispute court that lives inside the escrow (it holds the same funds).
library Disputes {
    /// @dev `None` is the zero value of a dispute that does not exist; the other five are the spec's.
    enum State {
        None,
        Pending,
        Investigating,
        Resolved,
        Appealed,
        Finalized
    }

    /// @dev The spec's outcomes. `None` until a decision is made.
    enum Outcome {
        None,
        PosterWins,
        PerformerWins,
        Split,
        Cancelled
    }

    struct Dispute {
        // slot 0
        uint64 missionId;
        address initiator;
        uint32 raisedAt;
        // slot 1
        address resolver;
        uint32 deadline; // Investigating: resolution deadline; Resolved: appeal deadline; Appealed: decision deadline
        State state;
        Outcome outcome;
        uint8 splitPercentage; // performer's share of the disputed remainder, in percent, when outcome is Split
        // slot 2
        address appellant;
        uint64 ddrAmount;
        // slot 3
        uint64 lppAmount;
        Outcome appealedOutcome; // the resolver's outcome that was appealed, None if no appeal
        uint8 appealedSplitPercentage;
        uint32 timeoutAt; // raisedAt + dispute timeout: without a decision by then, the default outcome applies
        // slot 4..6
        bytes32 posterEvidenceHash;
        bytes32 performerEvidenceHash;
        bytes32 resolutionHash;
    }

    /// @dev Where every token held for a disputed mission went when the dispute was finalized
    /// (`reward` is the mission's remainder when it was disputed):
    /// posterAmount + performerAmount + protocolAmount + guildAmount + labsAmount + poolAmount
    /// == reward + ddrAmount + lppAmount, exactly. `resolverAmount` is paid from the resolver pool, not
    /// from these amounts.
    struct Payout {
        uint256 posterAmount; // reward refund plus any DDR/LPP credited to the poster
        uint256 performerAmount; // net performer share plus any DDR/LPP credited to the performer
        uint256 protocolAmount; // the protocol treasury's part of the protocol share
        uint256 guildAmount;
        uint256 labsAmount;
        uint256 resolverAmount; // paid to `resolver` from the resolver pool (0 if none or the pool is empty)
        address resolver; // who was paid resolverAmount (address(0) when none)
        uint256 poolAmount; // the resolver pool's part of the protocol share, added to the pool
    }
}

/// @notice Types of the guild registry.
library Guilds {
    /// @dev Role bits of a member. A member with no bits is a plain member.
    uint8 internal constant ROLE_CURATOR = 1;
    uint8 internal constant ROLE_OFFICER = 2;
    uint8 internal constant ROLE_ADMIN = 4;

    struct Guild {
        address treasury;
        uint16 feeBps;
        uint32 memberCount;
        bool exists;
    }

    struct Member {
        bool isMember;
        uint8 roles;
        uint32 joinedAt;
    }
}
