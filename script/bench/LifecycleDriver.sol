// SPDX-License-Identifier: MIT
pragma solidity ^0.8.28;

/// Minimal view of the escrow the driver calls (the real MissionEscrow, unchanged).
interface IEscrowLifecycle {
    function createMission(address poster, uint256 reward, uint256 expiresAt, uint32 guildId, bytes32 detailsHash)
        external
        returns (uint256 missionId);
    function acceptMission(uint256 missionId, address performer, bytes32 detailsHash) external;
    function submitProof(uint256 missionId, bytes32 proofHash) external;
    function approveMission(uint256 missionId) external;
}

/// @notice Bench-only load generator (benchmark B7, the indexer chaos run): runs many complete mission
/// lifecycles (create, accept, submit, approve = 4 escrow events each) in ONE transaction through the
/// real escrow, so a chain of 100k lifecycle events is generated in seconds instead of 100k
/// transactions. Posters and performers are ordinary accounts that approved this contract as their
/// operator (OperatorRegistry) and the escrow for the token, so the events carry their addresses
/// exactly as relayed missions do. Never deployed outside a local chain.
contract LifecycleDriver {
    IEscrowLifecycle public immutable escrow;

    constructor(IEscrowLifecycle escrow_) {
        escrow = escrow_;
    }

    struct Batch {
        address[] posters;
        address[] performers;
        uint256 n; // missions; mission i: posters[i % len], performers[i % len]
        uint256 reward; // mission i gets reward + i
        uint256 expiresAt;
        uint256 salt; // makes detail and proof hashes unique across calls
        uint256 openEvery; // every k-th mission (k > 0) stops after accept; 0 = all complete
    }

    function run(Batch calldata b) external returns (uint256 firstId, uint256 events) {
        for (uint256 i = 0; i < b.n; ++i) {
            uint256 id = _one(b, i);
            if (i == 0) firstId = id;
            events += (b.openEvery != 0 && i % b.openEvery == b.openEvery - 1) ? 2 : 4;
        }
    }

    function _one(Batch calldata b, uint256 i) internal returns (uint256 id) {
        bytes32 details = keccak256(abi.encode(b.salt, i));
        id = escrow.createMission(b.posters[i % b.posters.length], b.reward + i, b.expiresAt, 0, details);
        escrow.acceptMission(id, b.performers[i % b.performers.length], details);
        if (b.openEvery != 0 && i % b.openEvery == b.openEvery - 1) return id;
        escrow.submitProof(id, keccak256(abi.encode(details)));
        escrow.approveMission(id);
    }
}
