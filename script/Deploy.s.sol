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
import {RelayerExecutor} from "../contracts/RelayerExecutor.sol";
import {ReputationRegistry} from "../contracts/ReputationRegistry.sol";
import {TestStablecoin} from "../contracts/TestStablecoin.sol";
import {IDisputeCourt} from "../contracts/interfaces/IDisputeCourt.sol";
import {IGuildRegistry} from "../contracts/interfaces/IGuildRegistry.sol";
import {IMissionEscrow} from "../contracts/interfaces/IMissionEscrow.sol";
import {ISettlements} from "../contracts/interfaces/ISettlements.sol";
import {IOperatorRegistry} from "../contracts/interfaces/IOperatorRegistry.sol";
import {Guilds} from "../contracts/types/DataTypes.sol";

/// @notice Deploys the marketplace (or reuses the deployment recorded in DEPLOYMENT_FILE when its code
/// is on the chain), grants the service's roles, defines the achievements, registers the rating schema
/// and, on a local chain (31337) only, funds and authorises anvil's accounts 1..8 and creates a demo
/// guild. Every step checks the chain first, so running it again sends nothing that is already done.
///
/// The RelayerExecutor (the operator users approve; docs/decisions.md "Relayer key pool (executor)") is
/// deployed with the deployer as admin, its allowlist set, and RELAYER_ROLE granted to the relayer and
/// to every address in RELAYER_ADDRESSES (the key pool). It is recorded as `executor` in the file; an
/// older file without it gets one on the next run.
///
/// On a chain with a canonical stablecoin and EAS (`npm run deploy` passes a known chain's addresses
/// from indexer/lib/known-chains.ts), those are used instead of the test token and a private EAS, and
/// the rating schema is registered only if the registry lacks it.
///
/// Env: DEPLOYER_PRIVATE_KEY (required except on 31337, where anvil's account 0 is used),
/// RELAYER_ADDRESS (default: the deployer; the pool's primary key, which holds the service's roles),
/// RELAYER_ADDRESSES (comma list: the pool's keys, granted RELAYER_ROLE on the executor; the relayer
/// always is), PROTOCOL_TREASURY and LABS_TREASURY (default: the
/// deployer), STABLECOIN_ADDRESS (default: deploy TestStablecoin), EAS_ADDRESS and
/// SCHEMA_REGISTRY_ADDRESS (both or neither; default: deploy EAS), DEPLOYMENT_FILE (default
/// deployments/<chainId>.json; must be under deployments/, the only folder foundry.toml lets scripts
/// write: `npm run deploy` stages other paths there).
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
        /// @dev TestStablecoin when the script deployed it, else the chain's canonical stablecoin.
        address stablecoin;
        OperatorRegistry operators;
        GuildRegistry guilds;
        MissionEscrow escrow;
        AchievementNFT achievements;
        ReputationRegistry reputation;
        ISchemaRegistry schemaRegistry;
        address eas;
        uint256[8] startBlocks;
        /// @dev The operator users approve; the pool's keys forward through it.
        RelayerExecutor executor;
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
        "Stablecoin",
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
    /// @dev The key pool: RELAYER_ROLE on the executor (the relayer too).
    address[] internal relayers;
    /// @dev The chain's own stablecoin / EAS pair, or zero to deploy the project's.
    address internal canonicalStablecoin;
    address internal canonicalEas;
    address internal canonicalSchemaRegistry;

    function run() external returns (Deployment memory d) {
        deployerKey = vm.envOr("DEPLOYER_PRIVATE_KEY", uint256(0));
        if (deployerKey == 0) {
            require(block.chainid == LOCAL_CHAIN_ID, "Deploy: DEPLOYER_PRIVATE_KEY is required off the local chain");
            deployerKey = vm.deriveKey(ANVIL_MNEMONIC, 0);
        }
        deployer = vm.addr(deployerKey);
        relayer = vm.envOr("RELAYER_ADDRESS", deployer);
        address[] memory onlyRelayer = new address[](1);
        onlyRelayer[0] = relayer;
        relayers = vm.envOr("RELAYER_ADDRESSES", ",", onlyRelayer);
        _readCanonical();
        string memory file =
            vm.envOr("DEPLOYMENT_FILE", string.concat("deployments/", vm.toString(block.chainid), ".json"));

        bool reused;
        (d, reused) = _existing(file);
        if (reused) {
            console.log("Reusing the deployment in", file);
        } else {
            d = _deploy();
        }
        _useCanonicalEas(d);
        _grantRoles(d);
        _setUpExecutor(d);
        _defineAchievements(d.achievements);
        bytes32 schemaUid = _registerRatingSchema(d.schemaRegistry);
        if (block.chainid == LOCAL_CHAIN_ID && canonicalStablecoin == address(0)) _setUpLocal(d);

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
            // Files written before the stablecoin entry was renamed still name it after the test token.
            if (i == 0 && !vm.keyExistsJson(json, key)) key = ".contracts.TestStablecoin";
            addrs[i] = vm.parseJsonAddress(json, string.concat(key, ".address"));
            if (addrs[i].code.length == 0) return (d, false);
            d.startBlocks[i] = vm.parseJsonUint(json, string.concat(key, ".startBlock"));
        }
        d.stablecoin = addrs[0];
        d.operators = OperatorRegistry(addrs[1]);
        d.guilds = GuildRegistry(addrs[2]);
        d.escrow = MissionEscrow(addrs[3]);
        d.achievements = AchievementNFT(addrs[4]);
        d.reputation = ReputationRegistry(addrs[5]);
        d.schemaRegistry = ISchemaRegistry(addrs[6]);
        d.eas = addrs[7];
        // The escrow is bound to its token for good: another stablecoin needs a new deployment.
        if (canonicalStablecoin != address(0) && d.escrow.token() != canonicalStablecoin) return (d, false);
        // Files written before the executor existed have none: one is deployed for them.
        if (vm.keyExistsJson(json, ".executor")) {
            address executor = vm.parseJsonAddress(json, ".executor");
            if (executor.code.length > 0) d.executor = RelayerExecutor(executor);
        }
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
        d.stablecoin = canonicalStablecoin != address(0) ? canonicalStablecoin : address(new TestStablecoin(deployer));
        d.operators = new OperatorRegistry();
        d.guilds = new GuildRegistry(d.operators, deployer);
        d.escrow =
            new MissionEscrow(IERC20(d.stablecoin), d.operators, d.guilds, deployer, protocolTreasury, labsTreasury);
        d.achievements = new AchievementNFT(deployer);
        d.reputation = new ReputationRegistry(deployer);
        if (canonicalEas == address(0)) {
            d.schemaRegistry =
                ISchemaRegistry(vm.deployCode(string.concat(EAS_ARTIFACTS, "SchemaRegistry.sol/SchemaRegistry.json")));
            d.eas = vm.deployCode(string.concat(EAS_ARTIFACTS, "EAS.sol/EAS.json"), abi.encode(d.schemaRegistry));
        }
        vm.stopBroadcast();
    }

    /// @dev Reads the canonical addresses and checks that each has code, before anything is sent.
    function _readCanonical() internal {
        canonicalStablecoin = vm.envOr("STABLECOIN_ADDRESS", address(0));
        canonicalEas = vm.envOr("EAS_ADDRESS", address(0));
        canonicalSchemaRegistry = vm.envOr("SCHEMA_REGISTRY_ADDRESS", address(0));
        require(
            (canonicalEas == address(0)) == (canonicalSchemaRegistry == address(0)),
            "Deploy: set EAS_ADDRESS and SCHEMA_REGISTRY_ADDRESS together"
        );
        require(
            canonicalStablecoin == address(0) || canonicalStablecoin.code.length > 0,
            "Deploy: STABLECOIN_ADDRESS has no code on this chain"
        );
        require(canonicalEas == address(0) || canonicalEas.code.length > 0, "Deploy: EAS_ADDRESS has no code on this chain");
        require(
            canonicalSchemaRegistry == address(0) || canonicalSchemaRegistry.code.length > 0,
            "Deploy: SCHEMA_REGISTRY_ADDRESS has no code on this chain"
        );
    }

    /// @dev The chain's EAS replaces whatever EAS the deployment had. Its startBlock is now: the
    /// indexer needs attestations of this deployment only, not the registry's whole history.
    function _useCanonicalEas(Deployment memory d) internal view {
        if (canonicalEas == address(0)) return;
        if (d.eas != canonicalEas) {
            d.eas = canonicalEas;
            d.startBlocks[7] = block.number;
        }
        if (address(d.schemaRegistry) != canonicalSchemaRegistry) {
            d.schemaRegistry = ISchemaRegistry(canonicalSchemaRegistry);
            d.startBlocks[6] = block.number;
        }
    }

    /*//////////////////////////////////////////////////////////////
                           ROLES AND REGISTRIES
    //////////////////////////////////////////////////////////////*/

    function _grantRoles(Deployment memory d) internal {
        vm.startBroadcast(deployerKey);
        if (address(d.guilds.escrow()) == address(0)) d.guilds.setEscrow(IMissionEscrow(address(d.escrow)));
        // Only the project's test token has a faucet; a canonical USDC is minted by its issuer alone.
        if (canonicalStablecoin == address(0)) {
            TestStablecoin token = TestStablecoin(d.stablecoin);
            _grant(d.stablecoin, token.FAUCET_ROLE(), relayer);
        }
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

    /// @dev The executor, its allowlist (the calls the service makes for users; never the token, an admin
    /// function, setOperator or updateGuildSettings) and the pool's RELAYER_ROLE. Only what is missing is sent.
    function _setUpExecutor(Deployment memory d) internal {
        vm.startBroadcast(deployerKey);
        if (address(d.executor) == address(0)) d.executor = new RelayerExecutor(deployer);
        RelayerExecutor ex = d.executor;
        bytes4[22] memory escrowCalls = [
            IMissionEscrow.createMission.selector,
            IMissionEscrow.updateDetails.selector,
            IMissionEscrow.acceptMission.selector,
            IMissionEscrow.submitProof.selector,
            IMissionEscrow.approveMission.selector,
            IMissionEscrow.cancelMission.selector,
            IMissionEscrow.expireMission.selector,
            IMissionEscrow.claimAfterReview.selector,
            IMissionEscrow.withdraw.selector,
            IMissionEscrow.withdrawGuildFees.selector,
            IDisputeCourt.raiseDispute.selector,
            IDisputeCourt.submitEvidence.selector,
            IDisputeCourt.appealDispute.selector,
            IDisputeCourt.finalizeDispute.selector,
            // Money in trouble (issue 39): parts and settlements, each checking the party or its operator.
            IMissionEscrow.releasePartial.selector,
            IMissionEscrow.refundPartial.selector,
            ISettlements.offerSettlement.selector,
            ISettlements.withdrawSettlement.selector,
            ISettlements.acceptSettlement.selector,
            // The resolver's calls (the resolver approved the executor) and the keeper's release.
            IDisputeCourt.takeDispute.selector,
            IDisputeCourt.resolveDispute.selector,
            IDisputeCourt.releaseDispute.selector
        ];
        for (uint256 i; i < escrowCalls.length; ++i) {
            _allow(ex, address(d.escrow), escrowCalls[i]);
        }
        bytes4[6] memory guildCalls = [
            IGuildRegistry.createGuild.selector,
            IGuildRegistry.join.selector,
            IGuildRegistry.leave.selector,
            IGuildRegistry.setRoles.selector,
            IGuildRegistry.publishToBoard.selector,
            IGuildRegistry.removeFromBoard.selector
        ];
        for (uint256 i; i < guildCalls.length; ++i) {
            _allow(ex, address(d.guilds), guildCalls[i]);
        }
        _allow(ex, address(d.operators), IOperatorRegistry.renounceOperator.selector);
        _grant(address(ex), ex.RELAYER_ROLE(), relayer);
        for (uint256 i; i < relayers.length; ++i) {
            _grant(address(ex), ex.RELAYER_ROLE(), relayers[i]);
        }
        vm.stopBroadcast();
    }

    /// @dev Inside a broadcast of the deployer (the executor's admin).
    function _allow(RelayerExecutor ex, address target, bytes4 selector) internal {
        if (!ex.isAllowed(target, selector)) ex.setAllowed(target, selector, true);
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
        TestStablecoin token = TestStablecoin(d.stablecoin);
        vm.startBroadcast(deployerKey);
        _grant(d.stablecoin, token.FAUCET_ROLE(), deployer);
        _grant(address(d.escrow), d.escrow.RESOLVER_ROLE(), vm.addr(vm.deriveKey(ANVIL_MNEMONIC, 9)));
        for (uint32 i = 1; i <= 8; ++i) {
            address account = vm.addr(vm.deriveKey(ANVIL_MNEMONIC, i));
            uint256 balance = token.balanceOf(account);
            if (balance < LOCAL_BALANCE) token.mint(account, LOCAL_BALANCE - balance);
        }
        vm.stopBroadcast();

        for (uint32 i = 1; i <= 8; ++i) {
            uint256 key = vm.deriveKey(ANVIL_MNEMONIC, i);
            address account = vm.addr(key);
            vm.startBroadcast(key);
            if (token.allowance(account, address(d.escrow)) != type(uint256).max) {
                token.approve(address(d.escrow), type(uint256).max);
            }
            // The service's operator is the executor (any pool key acts through it).
            if (!d.operators.isOperator(account, address(d.executor))) d.operators.setOperator(address(d.executor), true);
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
            d.stablecoin,
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
        vm.serializeAddress("root", "executor", address(d.executor));
        vm.serializeString("root", "contracts", contractsJson);
        vm.serializeBytes32("root", "ratingSchemaUid", schemaUid);
        string memory json = vm.serializeUint("root", "startBlock", minStart);
        vm.writeJson(json, file);
        console.log("Deployment written to", file);
    }
}
