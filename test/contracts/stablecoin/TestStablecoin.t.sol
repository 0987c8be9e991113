// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";

import {Base} from "../Base.t.sol";

contract TestStablecoin_Test is Base {
    function test_Metadata() external view {
        assertEq(usdc.name(), "Test USD Coin", "name");
        assertEq(usdc.symbol(), "tUSDC", "symbol");
        assertEq(usdc.decimals(), 6, "decimals");
        assertEq(usdc.FAUCET_ROLE(), keccak256("FAUCET_ROLE"), "faucet role");
        assertTrue(usdc.hasRole(usdc.DEFAULT_ADMIN_ROLE(), users.admin), "admin");
        assertTrue(usdc.hasRole(usdc.FAUCET_ROLE(), users.admin), "faucet");
    }

    function test_Mint_RevertWhen_CallerNotFaucet() external {
        bytes32 role = usdc.FAUCET_ROLE();
        vm.prank(users.eve);
        vm.expectRevert(
            abi.encodeWithSelector(IAccessControl.AccessControlUnauthorizedAccount.selector, users.eve, role)
        );
        usdc.mint(users.eve, 1);
    }

    function testFuzz_Mint(address to, uint256 amount) external {
        vm.assume(to != address(0));
        amount = bound(amount, 0, 1e30);
        uint256 before = usdc.balanceOf(to);
        vm.prank(users.admin);
        usdc.mint(to, amount);
        assertEq(usdc.balanceOf(to) - before, amount, "minted");
    }

    function test_Mint_ByGrantedFaucet() external {
        bytes32 role = usdc.FAUCET_ROLE();
        vm.prank(users.admin);
        usdc.grantRole(role, users.operator);
        vm.prank(users.operator);
        usdc.mint(users.eve, 5e6);
        assertEq(usdc.balanceOf(users.eve), FUNDS + 5e6, "minted by the new faucet");
    }

    function test_Permit() external {
        (address owner, uint256 key) = makeAddrAndKey("PermitOwner");
        uint256 deadline = block.timestamp + 1 hours;
        bytes32 structHash = keccak256(
            abi.encode(
                keccak256("Permit(address owner,address spender,uint256 value,uint256 nonce,uint256 deadline)"),
                owner,
                address(escrow),
                REWARD,
                0,
                deadline
            )
        );
        bytes32 hash = keccak256(abi.encodePacked("\x19\x01", usdc.DOMAIN_SEPARATOR(), structHash));
        (uint8 v, bytes32 r, bytes32 s) = vm.sign(key, hash);
        usdc.permit(owner, address(escrow), REWARD, deadline, v, r, s);
        assertEq(usdc.allowance(owner, address(escrow)), REWARD, "allowance by permit");
        assertEq(usdc.nonces(owner), 1, "nonce");
    }
}
