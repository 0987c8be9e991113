// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @notice A 6-decimal token that calls back into a target (the escrow) on every transfer, with the
/// calldata set by the test, and records whether the reentrant call succeeded.
contract ReentrantToken is ERC20("Reentrant USD", "rUSD") {
    address public target;
    bytes public callData;
    bool public reentered;
    bool public reentrySucceeded;

    function decimals() public pure override returns (uint8) {
        return 6;
    }

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function arm(address target_, bytes calldata callData_) external {
        target = target_;
        callData = callData_;
    }

    function _update(address from, address to, uint256 value) internal override {
        super._update(from, to, value);
        if (target != address(0) && from == target) {
            address t = target;
            target = address(0); // once
            reentered = true;
            (reentrySucceeded,) = t.call(callData);
        }
    }
}
