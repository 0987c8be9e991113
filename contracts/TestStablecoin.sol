// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";

/// @title TestStablecoin
/// @notice The testnet stablecoin of the marketplace: 6 decimals like USDC, EIP-2612 permit, minted only
/// by a faucet role. On a network with a real USDC the escrow is deployed with that token instead.
contract TestStablecoin is ERC20, ERC20Permit, AccessControl {
    bytes32 public constant FAUCET_ROLE = keccak256("FAUCET_ROLE");

    constructor(address admin) ERC20("Test USD Coin", "tUSDC") ERC20Permit("Test USD Coin") {
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(FAUCET_ROLE, admin);
    }

    function decimals() public pure override returns (uint8) {
        return 6;
    }

    /// @notice Mints `amount` base units to `to`. Only FAUCET_ROLE.
    function mint(address to, uint256 amount) external onlyRole(FAUCET_ROLE) {
        _mint(to, amount);
    }
}
