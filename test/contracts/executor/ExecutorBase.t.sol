// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Base} from "../Base.t.sol";
import {RelayerExecutor} from "contracts/RelayerExecutor.sol";
import {IMissionEscrow} from "contracts/interfaces/IMissionEscrow.sol";
import {IOperatorRegistry} from "contracts/interfaces/IOperatorRegistry.sol";

/// @notice The marketplace plus an executor the poster and performer approved, two pool keys and the
/// allowlist the service would use.
abstract contract ExecutorBase is Base {
    RelayerExecutor internal executor;
    address internal key0;
    address internal key1;
    address internal pauser;

    function setUp() public virtual override {
        super.setUp();
        key0 = makeAddr("Key0");
        key1 = makeAddr("Key1");
        pauser = makeAddr("Pauser");
        executor = new RelayerExecutor(users.admin);

        vm.startPrank(users.admin);
        executor.grantRole(executor.RELAYER_ROLE(), key0);
        executor.grantRole(executor.RELAYER_ROLE(), key1);
        executor.grantRole(executor.PAUSER_ROLE(), pauser);
        bytes4[] memory escrowCalls = serviceEscrowSelectors();
        for (uint256 i; i < escrowCalls.length; ++i) {
            executor.setAllowed(address(escrow), escrowCalls[i], true);
        }
        executor.setAllowed(address(operators), IOperatorRegistry.renounceOperator.selector, true);
        vm.stopPrank();

        vm.prank(users.poster);
        operators.setOperator(address(executor), true);
        vm.prank(users.performer);
        operators.setOperator(address(executor), true);
    }

    function serviceEscrowSelectors() internal pure returns (bytes4[] memory s) {
        s = new bytes4[](8);
        s[0] = IMissionEscrow.createMission.selector;
        s[1] = IMissionEscrow.acceptMission.selector;
        s[2] = IMissionEscrow.submitProof.selector;
        s[3] = IMissionEscrow.approveMission.selector;
        s[4] = IMissionEscrow.cancelMission.selector;
        s[5] = IMissionEscrow.expireMission.selector;
        s[6] = IMissionEscrow.claimAfterReview.selector;
        s[7] = IMissionEscrow.withdraw.selector;
    }

    function createCall(address poster, uint256 reward) internal view returns (bytes memory) {
        return abi.encodeCall(
            IMissionEscrow.createMission,
            (poster, reward, block.timestamp + DURATION, uint32(0), DETAILS_HASH)
        );
    }

    /// @dev Key0 creates a mission for the poster through the executor.
    function relayCreate(uint256 reward) internal returns (uint256 missionId) {
        vm.prank(key0);
        missionId = abi.decode(executor.execute(address(escrow), createCall(users.poster, reward)), (uint256));
    }
}
