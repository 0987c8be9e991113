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

    /// @dev A mission as `getMission` returns it (stored as `Record`). `reward` is in the stablecoin's base units (6 decimals); uint64 holds
    /// up to 1.8e13 whole units. `guildFeeBps` is snapshotted at creation so a guild cannot raise its
    /// fee on a mission already in flight. `reviewDeadline` is 0 until proof is submitted.
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
    }

    /// @dev How the escrow stores a mission (`Mission` is what `getMission` returns; same fields, same
    /// three slots, another packing). The expiry sits with the poster and the reward, and the guild with
    /// the performer, so slot 1 stays zero until acceptance for a mission outside a guild: creation
    /// writes two new slots, acceptance the third (the 95 bytes of a mission need three), and no step
    /// rewrites a slot it just created. Submit reads slot 0 for the expiry, which the existence check
    /// already reads. G1 in docs/bench: 5,000 gas less per no-guild lifecycle than `Mission`'s packing.
    struct Record {
        // slot 0
        address poster;
        uint64 reward;
        uint32 expiresAt;
        // slot 1
        address performer;
        uint32 reviewDeadline;
        State state;
        uint16 guildFeeBps;
        uint32 guildId;
        // slot 2
        bytes32 detailsHash;
    }

    /// @dev The five shares of the spec's settlement. They always sum exactly to the amount settled.
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
        uint8 splitPercentage; // performer's share of the net reward, in percent, when outcome is Split
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

    /// @dev Where every token held for a disputed mission went when the dispute was finalized.
    /// posterAmount + performerAmount + protocolAmount + guildAmount + labsAmount + resolverAmount
    /// == reward + ddrAmount + lppAmount, exactly.
    struct Payout {
        uint256 posterAmount; // reward refund plus any DDR/LPP credited to the poster
        uint256 performerAmount; // net performer share plus any DDR/LPP credited to the performer
        uint256 protocolAmount;
        uint256 guildAmount;
        uint256 labsAmount;
        uint256 resolverAmount;
        address resolver; // who was paid resolverAmount (address(0) when none)
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
