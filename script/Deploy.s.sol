// SPDX-License-Identifier: MIT
pragma solidity 0.8.28;

import {Script, console} from "forge-std/Script.sol";
import {IAccessControl} from "@openzeppelin/contracts/access/IAccessControl.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {Base64} from "@openzeppelin/contracts/utils/Base64.sol";
import {ISchemaRegistry} from "@ethereum-attestation-service/eas-contracts/contracts/ISchemaRegistry.sol";
import {ISchemaResolver} from "@ethereum-attestation-service/eas-contracts/contracts/resolver/ISchemaResolver.sol";

import {AchievementNFT} from "../contracts/AchievementNFT.sol";
import {GuildRegistry} from "../contracts/GuildRegistry.sol";
import {MissionEscrow} from "../contracts/MissionEscrow.sol";
import {OperatorRegistry} from "../contracts/OperatorRegistry.sol";
import {ReputationRegistry} from "../contracts/ReputationRegistry.sol";
import {TestStablecoin} from "../contracts/TestStablecoin.sol";
import {IMissionEscrow} from "../contracts/interfaces/IMissionEscrow.sol";
import {Guilds} from "../contracts/types/DataTypes.sol";

/// @notice Deploys the marketplace (or reuses the deployment recorded in DEPLOYMENT_FILE when its code
/// is on the chain), grants the service's roles, defines the achievements, registers the rating schema
/// and, on a local chain (31337) only, funds and authorises anvil's accounts 1..8 and creates a demo
/// guild. Every step checks the chain first, so running it again sends nothing that is already done.
///
/// Env: DEPLOYER_PRIVATE_KEY (required except on 31337, where anvil's account 0 is used),
/// RELAYER_ADDRESS (default: the deployer), PROTOCOL_TREASURY and LABS_TREASURY (default: the
/// deployer), DEPLOYMENT_FILE (default deployments/<chainId>.json; must be under deployments/, the
/// only folder foundry.toml lets scripts write: `npm run deploy` stages other paths there).
///
///   forge script script/Deploy.s.sol --rpc-url $RPC_URL --broadcast
contract Deploy is Script {
    /// @dev anvil's well-known development mnemonic: its keys are public, never use them elsewhere.
    string internal constant ANVIL_MNEMONIC = "test test test test test test test test test test test junk";
    uint256 internal constant LOCAL_CHAIN_ID = 31337;
    uint256 internal constant LOCAL_BALANCE = 100_000 * 1e6;

    string internal constant EAS_ARTIFACTS = "node_modules/@ethereum-attestation-service/eas-contracts/artifacts/contracts/";
    string public constant RATING_SCHEMA =
        "bytes32 missionId,address rater,address ratee,uint8 score,string comment,uint256 timestamp";

    struct Deployment {
        TestStablecoin stablecoin;
        OperatorRegistry operators;
        GuildRegistry guilds;
        MissionEscrow escrow;
        AchievementNFT achievements;
        ReputationRegistry reputation;
        ISchemaRegistry schemaRegistry;
        address eas;
        uint256[8] startBlocks;
    }

    struct Achievement {
        uint256 id;
        string name;
        string description;
        string requirements;
        string achievementType;
        uint32 xpReward;
        bool soulbound;
        string color;
        string label;
    }

    string[8] internal NAMES = [
        "TestStablecoin",
        "OperatorRegistry",
        "GuildRegistry",
        "MissionEscrow",
        "AchievementNFT",
        "ReputationRegistry",
        "SchemaRegistry",
        "EAS"
    ];

    uint256 internal deployerKey;
    address internal deployer;
    address internal relayer;

    function run() external returns (Deployment memory d) {
        deployerKey = vm.envOr("DEPLOYER_PRIVATE_KEY", uint256(0));
        if (deployerKey == 0) {
            require(block.chainid == LOCAL_CHAIN_ID, "Deploy: DEPLOYER_PRIVATE_KEY is required off the local chain");
            deployerKey = vm.deriveKey(ANVIL_MNEMONIC, 0);
        }
        deployer = vm.addr(deployerKey);
        relayer = vm.envOr("RELAYER_ADDRESS", deployer);
        string memory file =
            vm.envOr("DEPLOYMENT_FILE", string.concat("deployments/", vm.toString(block.chainid), ".json"));

        bool reused;
        (d, reused) = _existing(file);
        if (reused) {
            console.log("Reusing the deployment in", file);
        } else {
            d = _deploy();
        }
        _grantRoles(d);
        _defineAchievements(d.achievements);
        bytes32 schemaUid = _registerRatingSchema(d.schemaRegistry);
        if (block.chainid == LOCAL_CHAIN_ID) _setUpLocal(d);

        _write(file, d, schemaUid);
    }

    /*//////////////////////////////////////////////////////////////
                                DEPLOYMENT
    //////////////////////////////////////////////////////////////*/

    /// @dev The deployment recorded in `file`, if it is for this chain and all its code is there.
    function _existing(string memory file) internal view returns (Deployment memory d, bool ok) {
        if (!vm.exists(file)) return (d, false);
        string memory json = vm.readFile(file);
        if (vm.parseJsonUint(json, ".chainId") != block.chainid) return (d, false);
        address[8] memory addrs;
        for (uint256 i; i < 8; ++i) {
            string memory key = string.concat(".contracts.", NAMES[i]);
            addrs[i] = vm.parseJsonAddress(json, string.concat(key, ".address"));
            if (addrs[i].code.length == 0) return (d, false);
            d.startBlocks[i] = vm.parseJsonUint(json, string.concat(key, ".startBlock"));
        }
        d.stablecoin = TestStablecoin(addrs[0]);
        d.operators = OperatorRegistry(addrs[1]);
        d.guilds = GuildRegistry(addrs[2]);
        d.escrow = MissionEscrow(addrs[3]);
        d.achievements = AchievementNFT(addrs[4]);
        d.reputation = ReputationRegistry(addrs[5]);
        d.schemaRegistry = ISchemaRegistry(addrs[6]);
        d.eas = addrs[7];
        ok = true;
    }

    function _deploy() internal returns (Deployment memory d) {
        address protocolTreasury = vm.envOr("PROTOCOL_TREASURY", deployer);
        address labsTreasury = vm.envOr("LABS_TREASURY", deployer);
        // A lower bound: the script simulates on the latest block, the transactions land after it.
        // `npm run deploy` replaces it with the exact block of each contract.
        for (uint256 i; i < 8; ++i) {
            d.startBlocks[i] = block.number;
        }

        vm.startBroadcast(deployerKey);
        d.stablecoin = new TestStablecoin(deployer);
        d.operators = new OperatorRegistry();
        d.guilds = new GuildRegistry(d.operators, deployer);
        d.escrow = new MissionEscrow(
            IERC20(address(d.stablecoin)), d.operators, d.guilds, deployer, protocolTreasury, labsTreasury
        );
        d.achievements = new AchievementNFT(deployer);
        d.reputation = new ReputationRegistry(deployer);
        d.schemaRegistry =
            ISchemaRegistry(vm.deployCode(string.concat(EAS_ARTIFACTS, "SchemaRegistry.sol/SchemaRegistry.json")));
        d.eas = vm.deployCode(string.concat(EAS_ARTIFACTS, "EAS.sol/EAS.json"), abi.encode(d.schemaRegistry));
        vm.stopBroadcast();
    }

    /*//////////////////////////////////////////////////////////////
                           ROLES AND REGISTRIES
    //////////////////////////////////////////////////////////////*/

    function _grantRoles(Deployment memory d) internal {
        vm.startBroadcast(deployerKey);
        if (address(d.guilds.escrow()) == address(0)) d.guilds.setEscrow(IMissionEscrow(address(d.escrow)));
        _grant(address(d.stablecoin), d.stablecoin.FAUCET_ROLE(), relayer);
        _grant(address(d.achievements), d.achievements.MINTER_ROLE(), relayer);
        _grant(address(d.reputation), d.reputation.PROVIDER_ROLE(), relayer);
        _grant(address(d.reputation), d.reputation.REFERRER_ROLE(), relayer);
        _grant(address(d.escrow), d.escrow.APPEALS_ROLE(), deployer);
        vm.stopBroadcast();
    }

    /// @dev Inside a broadcast of the deployer (the admin of every contract).
    function _grant(address target, bytes32 role, address account) internal {
        if (!IAccessControl(target).hasRole(role, account)) IAccessControl(target).grantRole(role, account);
    }

    function _registerRatingSchema(ISchemaRegistry registry) internal returns (bytes32 uid) {
        uid = keccak256(abi.encodePacked(RATING_SCHEMA, address(0), false));
        if (registry.getSchema(uid).uid == bytes32(0)) {
            vm.broadcast(deployerKey);
            registry.register(RATING_SCHEMA, ISchemaResolver(address(0)), false);
        }
    }

    /*//////////////////////////////////////////////////////////////
                               ACHIEVEMENTS
    //////////////////////////////////////////////////////////////*/

    /// @dev Ids and texts are fixed: the API's reactor mints by id.
    function _achievementList() internal pure returns (Achievement[11] memory a) {
        a[0] = Achievement(1, "First Mission", "Completed a first mission.", "Complete your first mission", "Milestone", 25, true, "#2f855a", "1");
        a[1] = Achievement(2, "Early Game", "Reached level 6.", "Reach level 6", "Level", 50, true, "#3182ce", "6");
        a[2] = Achievement(3, "Mid Game", "Reached level 11.", "Reach level 11", "Level", 100, true, "#5a67d8", "11");
        a[3] = Achievement(4, "Late Game", "Reached level 16.", "Reach level 16", "Level", 200, true, "#805ad5", "16");
        a[4] = Achievement(5, "Prestige", "Reached level 21.", "Reach level 21", "Level", 400, true, "#d53f8c", "21");
        a[5] = Achievement(6, "Legend", "Reached level 25.", "Reach level 25", "Level", 1000, true, "#c05621", "25");
        a[6] = Achievement(7, "Ten Missions", "Completed ten missions.", "Complete 10 missions", "Milestone", 50, true, "#2c7a7b", "10");
        a[7] = Achievement(8, "Perfect Five", "Received a 5-star rating.", "Receive a 5-star rating", "Reputation", 10, true, "#d69e2e", "5*");
        a[8] = Achievement(9, "Guild Founder", "Created a guild.", "Create a guild", "Community", 25, true, "#4a5568", "G");
        a[9] = Achievement(10, "Peacemaker", "Resolved a dispute as resolver.", "Resolve a dispute as resolver", "Community", 50, true, "#38a169", "P");
        a[10] = Achievement(100, "Pioneer", "Joined the marketplace during the testnet.", "Joined during the testnet", "Collectible", 0, false, "#e53e3e", "T");
    }

    function _defineAchievements(AchievementNFT nft) internal {
        Achievement[11] memory list = _achievementList();
        vm.startBroadcast(deployerKey);
        for (uint256 i; i < list.length; ++i) {
            Achievement memory a = list[i];
            if (nft.isDefined(a.id)) continue;
            nft.defineAchievement(
                a.id, a.name, a.description, _badge(a.color, a.label), a.requirements, a.achievementType, a.xpReward, a.soulbound
            );
        }
        vm.stopBroadcast();
    }

    /// @dev A small round badge as an inline SVG data URI.
    function _badge(string memory color, string memory label) internal pure returns (string memory) {
        bytes memory svg = abi.encodePacked(
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="30" fill="',
            color,
            '"/><text x="32" y="40" font-family="sans-serif" font-size="20" font-weight="bold" text-anchor="middle" fill="#fff">',
            label,
            "</text></svg>"
        );
        return string.concat("data:image/svg+xml;base64,", Base64.encode(svg));
    }

    /*//////////////////////////////////////////////////////////////
                          LOCAL CHAIN (31337) ONLY
    //////////////////////////////////////////////////////////////*/

    function _setUpLocal(Deployment memory d) internal {
        // The relayer mints the faucet; on a local chain with another relayer the deployer mints too.
        vm.startBroadcast(deployerKey);
        _grant(address(d.stablecoin), d.stablecoin.FAUCET_ROLE(), deployer);
        _grant(address(d.escrow), d.escrow.RESOLVER_ROLE(), vm.addr(vm.deriveKey(ANVIL_MNEMONIC, 9)));
        for (uint32 i = 1; i <= 8; ++i) {
            address account = vm.addr(vm.deriveKey(ANVIL_MNEMONIC, i));
            uint256 balance = d.stablecoin.balanceOf(account);
            if (balance < LOCAL_BALANCE) d.stablecoin.mint(account, LOCAL_BALANCE - balance);
        }
        vm.stopBroadcast();

        for (uint32 i = 1; i <= 8; ++i) {
            uint256 key = vm.deriveKey(ANVIL_MNEMONIC, i);
            address account = vm.addr(key);
            vm.startBroadcast(key);
            if (d.stablecoin.allowance(account, address(d.escrow)) != type(uint256).max) {
                d.stablecoin.approve(address(d.escrow), type(uint256).max);
            }
            if (relayer != account && !d.operators.isOperator(account, relayer)) d.operators.setOperator(relayer, true);
            vm.stopBroadcast();
        }

        _demoGuild(d.guilds, vm.deriveKey(ANVIL_MNEMONIC, 1));
    }

    function _demoGuild(GuildRegistry guilds, uint256 adminKey) internal {
        address admin = vm.addr(adminKey);
        vm.startBroadcast(adminKey);
        uint32 guildId = guilds.guildIdByName("demo-guild");
        if (guildId == 0) {
            guildId = guilds.createGuild(
                admin, "demo-guild", "Demo Guild", "A guild for trying the marketplace locally.", "delivery", 500, admin
            );
        }
        uint8 wanted = Guilds.ROLE_CURATOR | Guilds.ROLE_ADMIN;
        uint8 roles = guilds.rolesOf(guildId, admin);
        if (roles & wanted != wanted) guilds.setRoles(guildId, admin, roles | wanted, admin);
        vm.stopBroadcast();
    }

    /*//////////////////////////////////////////////////////////////
                                  OUTPUT
    //////////////////////////////////////////////////////////////*/

    function _write(string memory file, Deployment memory d, bytes32 schemaUid) internal {
        address[8] memory addrs = [
            address(d.stablecoin),
            address(d.operators),
            address(d.guilds),
            address(d.escrow),
            address(d.achievements),
            address(d.reputation),
            address(d.schemaRegistry),
            d.eas
        ];
        string memory contractsJson;
        uint256 minStart = type(uint256).max;
        for (uint256 i; i < 8; ++i) {
            string memory key = string.concat("contract.", NAMES[i]);
            vm.serializeAddress(key, "address", addrs[i]);
            string memory entry = vm.serializeUint(key, "startBlock", d.startBlocks[i]);
            contractsJson = vm.serializeString("contracts", NAMES[i], entry);
            if (d.startBlocks[i] < minStart) minStart = d.startBlocks[i];
        }
        vm.serializeUint("root", "chainId", block.chainid);
        vm.serializeAddress("root", "deployer", deployer);
        vm.serializeAddress("root", "relayer", relayer);
        vm.serializeString("root", "contracts", contractsJson);
        vm.serializeBytes32("root", "ratingSchemaUid", schemaUid);
        string memory json = vm.serializeUint("root", "startBlock", minStart);
        vm.writeJson(json, file);
        console.log("Deployment written to", file);
    }
}
