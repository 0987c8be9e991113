// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @notice A 6-decimal token that reverts transfers to blacklisted accounts (like USDC).
contract BlacklistToken is ERC20("Blacklist USD", "bUSD") {
    mapping(address => bool) public blacklisted;

    function decimals() public pure override returns (uint8) {
        return 6;
    }

    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    function setBlacklisted(address account, bool value) external {
        blacklisted[account] = value;
    }

    function _update(address from, address to, uint256 value) internal override {
        require(!blacklisted[to] && !blacklisted[from], "blacklisted");
        super._update(from, to, value);
    }
}
