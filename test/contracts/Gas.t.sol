// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Base} from "./Base.t.sol";

/// @notice One lifecycle (create, accept, submit, approve; no guild, direct user calls), one step per test,
/// so `forge snapshot` (.gas-snapshot) shows each step. Steady state: the counter, the treasuries and the
/// performer already hold value, as on a live deployment.
contract Gas_Test is Base {
    uint256 internal openId;
    uint256 internal acceptedId;
    uint256 internal submittedId;
    uint256 internal offeredId;

    function setUp() public override {
        super.setUp();
        uint256 warmup = createSubmitted();
        vm.prank(users.poster);
        escrow.approveMission(warmup);
        openId = createOpen();
        acceptedId = createAccepted(REWARD, 0);
        submittedId = createSubmitted();
        offeredId = createSubmitted();
        vm.prank(users.performer);
        escrow.offerSettlement(offeredId, users.performer, 60e6);
    }

    function test_Gas_1_CreateMission() external {
        vm.prank(users.poster);
        escrow.createMission(users.poster, REWARD, block.timestamp + DURATION, 0, DETAILS_HASH);
    }

    function test_Gas_2_AcceptMission() external {
        vm.prank(users.performer);
        escrow.acceptMission(openId, users.performer, DETAILS_HASH);
    }

    function test_Gas_3_SubmitProof() external {
        vm.prank(users.performer);
        escrow.submitProof(acceptedId, PROOF_HASH);
    }

    function test_Gas_4_ApproveMission() external {
        vm.prank(users.poster);
        escrow.approveMission(submittedId);
    }

    /// @dev In one transaction the later steps find warm storage; `forge test --isolate --gas-report`
    /// gives the per-transaction figures (see the report).
    function test_Gas_5_FullLifecycle() external {
        vm.prank(users.poster);
        uint256 id = escrow.createMission(users.poster, REWARD, block.timestamp + DURATION, 0, DETAILS_HASH);
        vm.prank(users.performer);
        escrow.acceptMission(id, users.performer, DETAILS_HASH);
        vm.prank(users.performer);
        escrow.submitProof(id, PROOF_HASH);
        vm.prank(users.poster);
        escrow.approveMission(id);
    }

    /// @dev Issue 39: a partial release (settled as an approval of the amount, the mission stays Accepted).
    function test_Gas_6_ReleasePartial() external {
        vm.prank(users.poster);
        escrow.releasePartial(acceptedId, 40e6);
    }

    /// @dev Issue 39: a settlement offer, and the other party accepting one (pays both parties and the fees).
    function test_Gas_7_OfferSettlement() external {
        vm.prank(users.poster);
        escrow.offerSettlement(submittedId, users.poster, 50e6);
    }

    function test_Gas_8_AcceptSettlement() external {
        vm.prank(users.poster);
        escrow.acceptSettlement(offeredId, users.poster, 60e6);
    }

    /// @dev Issue 40: paying out the protocol and labs fees the approvals above accrued (anyone may call).
    function test_Gas_9_WithdrawFees() external {
        escrow.withdrawFees();
    }
}
