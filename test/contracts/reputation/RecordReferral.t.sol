// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";

import {IReputationRegistry} from "../../../contracts/interfaces/IReputationRegistry.sol";
import {Errors} from "../../../contracts/libraries/Errors.sol";
import {ReputationRegistryBase} from "./ReputationRegistry.t.sol";

contract RecordReferral_Test is ReputationRegistryBase {
    function test_RecordReferral() external {
        vm.expectEmit(address(reputation));
        emit IReputationRegistry.ReferralRecorded(referrer, referee);
        vm.prank(relayer);
        reputation.recordReferral(referrer, referee);
        assertEq(reputation.referrerOf(referee), referrer, "referrerOf");
        assertEq(reputation.referrerOf(referrer), address(0), "referrer itself not referred");
    }

    function testFuzz_RecordReferral(address referrer_, address referee_) external {
        vm.assume(referrer_ != address(0) && referee_ != address(0) && referrer_ != referee_);
        vm.prank(relayer);
        reputation.recordReferral(referrer_, referee_);
        assertEq(reputation.referrerOf(referee_), referrer_, "referrerOf");
    }

    function test_RecordReferral_ChainOfReferrals() external {
        vm.startPrank(relayer);
        reputation.recordReferral(referrer, referee);
        reputation.recordReferral(referee, outsider);
        vm.stopPrank();
        assertEq(reputation.referrerOf(outsider), referee, "a referee may refer others");
    }

    function test_RevertWhen_CallerNotReferrerRole() external {
        vm.expectRevert(
            abi.encodeWithSelector(
                IAccessControl.AccessControlUnauthorizedAccount.selector, provider, reputation.REFERRER_ROLE()
            )
        );
        vm.prank(provider);
        reputation.recordReferral(referrer, referee);
    }

    function test_RevertWhen_SelfReferral() external {
        vm.expectRevert(abi.encodeWithSelector(Errors.ReputationRegistry_SelfReferral.selector, referee));
        vm.prank(relayer);
        reputation.recordReferral(referee, referee);
    }

    function test_RevertWhen_AlreadyReferred() external {
        vm.startPrank(relayer);
        reputation.recordReferral(referrer, referee);
        vm.expectRevert(
            abi.encodeWithSelector(Errors.ReputationRegistry_AlreadyReferred.selector, referee, referrer)
        );
        reputation.recordReferral(outsider, referee);
        vm.stopPrank();
    }

    function test_RevertWhen_ZeroAddress() external {
        vm.startPrank(relayer);
        vm.expectRevert(Errors.ZeroAddress.selector);
        reputation.recordReferral(address(0), referee);
        vm.expectRevert(Errors.ZeroAddress.selector);
        reputation.recordReferral(referrer, address(0));
        vm.stopPrank();
    }
}
