import fs from "node:fs";
import { createPublicClient, http, parseAbi, keccak256, encodePacked, maxUint256, toFunctionSelector, zeroAddress, zeroHash, type Address } from "viem";
import { describe, expect, it } from "vitest";
import {
  achievementNftAbi,
  guildRegistryAbi,
  operatorRegistryAbi,
  relayerExecutorAbi,
  schemaRegistryAbi,
  testStablecoinAbi,
} from "../../abis/index.ts";
import {
  anvilAddress,
  FUNDED_ACCOUNT_INDEXES,
  LOCAL_BALANCE,
  RESOLVER_ACCOUNT_INDEX,
} from "../../script/lib/accounts.ts";
import { CONTRACT_NAMES, deploy, readDeployment } from "../../script/lib/deploy.ts";
import { inject } from "./lane.ts";

const RATING_SCHEMA = "bytes32 missionId,address rater,address ratee,uint8 score,string comment,uint256 timestamp";
const accessControlAbi = parseAbi(["function hasRole(bytes32 role, address account) view returns (bool)"]);
const role = (name: string) => keccak256(new TextEncoder().encode(name));

const rpcUrl = inject("rpcUrl");
const deploymentFile = inject("deploymentFile");
const deployment = inject("deployment");
// Other e2e files spend and change things on the same chain: read the set-up as the deploy left it.
const blockNumber = BigInt(inject("deployedBlock"));
const client = createPublicClient({ transport: http(rpcUrl) });
const c = deployment.contracts;
const funded = FUNDED_ACCOUNT_INDEXES.map(anvilAddress);

const balances = (at?: bigint) =>
  Promise.all(
    funded.map((account) =>
      client.readContract({
        address: c.Stablecoin.address,
        abi: testStablecoinAbi,
        functionName: "balanceOf",
        args: [account],
        blockNumber: at,
      }),
    ),
  );

describe("deploy", () => {
  it("writes the deployment file with every contract deployed on the chain", async () => {
    expect(readDeployment(deploymentFile)).toEqual(deployment);
    expect(deployment.chainId).toBe(31337);
    expect(deployment.deployer).toBe(anvilAddress(0));
    expect(deployment.relayer).toBe(anvilAddress(0));
    expect(Object.keys(c).sort()).toEqual([...CONTRACT_NAMES].sort());
    for (const name of CONTRACT_NAMES) {
      const code = await client.getCode({ address: c[name].address });
      expect(code?.length, `${name} has code`).toBeGreaterThan(2);
      // startBlock is the exact block of the deployment: no code the block before.
      expect(c[name].startBlock, `${name} startBlock`).toBeGreaterThan(0); // a fresh anvil deploys from block 1
      const before = await client.getCode({ address: c[name].address, blockNumber: BigInt(c[name].startBlock - 1) });
      expect(before ?? "0x", `${name} startBlock is exact`).toBe("0x");
    }
    expect(deployment.startBlock).toBe(Math.min(...CONTRACT_NAMES.map((n) => c[n].startBlock)));
  });

  it("funds anvil's accounts 1..8, approves the escrow and the executor as operator", async () => {
    for (const [i, balance] of (await balances(blockNumber)).entries()) {
      expect(balance, `account ${i + 1} balance`).toBeGreaterThanOrEqual(LOCAL_BALANCE);
    }
    for (const account of funded) {
      const allowance = await client.readContract({
        address: c.Stablecoin.address,
        abi: testStablecoinAbi,
        functionName: "allowance",
        args: [account, c.MissionEscrow.address],
        blockNumber,
      });
      expect(allowance).toBe(maxUint256);
      const isOperator = await client.readContract({
        address: c.OperatorRegistry.address,
        abi: operatorRegistryAbi,
        functionName: "isOperator",
        args: [account, deployment.executor!],
        blockNumber,
      });
      expect(isOperator, `${account} approved the executor`).toBe(true);
    }
  });

  it("grants the service's roles", async () => {
    const hasRole = (address: Address, name: string, account: Address) =>
      client.readContract({ address, abi: accessControlAbi, functionName: "hasRole", args: [role(name), account], blockNumber });
    expect(await hasRole(c.MissionEscrow.address, "RESOLVER_ROLE", anvilAddress(RESOLVER_ACCOUNT_INDEX))).toBe(true);
    expect(await hasRole(c.MissionEscrow.address, "APPEALS_ROLE", deployment.deployer)).toBe(true);
    expect(await hasRole(c.Stablecoin.address, "FAUCET_ROLE", deployment.relayer)).toBe(true);
    expect(await hasRole(c.AchievementNFT.address, "MINTER_ROLE", deployment.relayer)).toBe(true);
    expect(await hasRole(c.ReputationRegistry.address, "PROVIDER_ROLE", deployment.relayer)).toBe(true);
    expect(await hasRole(c.ReputationRegistry.address, "REFERRER_ROLE", deployment.relayer)).toBe(true);
    const escrow = await client.readContract({ address: c.GuildRegistry.address, abi: guildRegistryAbi, functionName: "escrow", blockNumber });
    expect(escrow).toBe(c.MissionEscrow.address);
  });

  it("deploys the RelayerExecutor: deployer as admin, the relayer in the pool, the service's allowlist", async () => {
    const executor = deployment.executor!;
    expect((await client.getCode({ address: executor }))?.length ?? 0).toBeGreaterThan(2);
    const read = (functionName: "hasRole" | "isAllowed", args: readonly unknown[]) =>
      client.readContract({ address: executor, abi: relayerExecutorAbi, functionName, args, blockNumber } as never) as Promise<boolean>;
    expect(await read("hasRole", [zeroHash, deployment.deployer])).toBe(true);
    expect(await read("hasRole", [role("RELAYER_ROLE"), deployment.relayer])).toBe(true);
    const selector = (sig: string) => toFunctionSelector(sig);
    const allowed: [Address, string][] = [
      [c.MissionEscrow.address, "createMission(address,uint256,uint256,uint32,bytes32)"],
      [c.MissionEscrow.address, "acceptMission(uint256,address,bytes32)"],
      [c.MissionEscrow.address, "takeDispute(uint256,address)"],
      [c.MissionEscrow.address, "resolveDispute(uint256,uint8,uint8,bytes32)"],
      [c.MissionEscrow.address, "releaseDispute(uint256)"],
      [c.MissionEscrow.address, "releasePartial(uint256,uint256)"],
      [c.MissionEscrow.address, "refundPartial(uint256,uint256)"],
      [c.MissionEscrow.address, "offerSettlement(uint256,address,uint256)"],
      [c.MissionEscrow.address, "withdrawSettlement(uint256,address)"],
      [c.MissionEscrow.address, "acceptSettlement(uint256,address,uint256)"],
      [c.GuildRegistry.address, "join(uint32,address)"],
      [c.OperatorRegistry.address, "renounceOperator(address)"],
    ];
    for (const [target, sig] of allowed) expect(await read("isAllowed", [target, selector(sig)]), sig).toBe(true);
    // Never listed: the token, setOperator, admin and role-gated functions, the guild's settings.
    const refused: [Address, string][] = [
      [c.Stablecoin.address, "transferFrom(address,address,uint256)"],
      [c.OperatorRegistry.address, "setOperator(address,bool)"],
      [c.MissionEscrow.address, "decideAppeal(uint256,uint8,uint8,bytes32)"],
      [c.MissionEscrow.address, "grantRole(bytes32,address)"],
      [c.GuildRegistry.address, "updateGuildSettings(uint32,address,uint16,address)"],
    ];
    for (const [target, sig] of refused) expect(await read("isAllowed", [target, selector(sig)]), sig).toBe(false);
  });

  it("creates the demo guild with account 1 as admin and curator", async () => {
    const admin = anvilAddress(1);
    const read = <F extends "guildIdByName" | "getGuild" | "rolesOf">(functionName: F, args: unknown[]) =>
      client.readContract({ address: c.GuildRegistry.address, abi: guildRegistryAbi, functionName, args, blockNumber } as never);
    const guildId = (await read("guildIdByName", ["demo-guild"])) as number;
    expect(guildId).toBeGreaterThan(0);
    const guild = (await read("getGuild", [guildId])) as { treasury: Address; feeBps: number; exists: boolean };
    expect(guild).toMatchObject({ treasury: admin, feeBps: 500, exists: true });
    const roles = (await read("rolesOf", [guildId, admin])) as number;
    expect(roles & 5).toBe(5);
  });

  it("registers the rating schema, non-revocable and without resolver", async () => {
    const uid = keccak256(encodePacked(["string", "address", "bool"], [RATING_SCHEMA, zeroAddress, false]));
    expect(deployment.ratingSchemaUid).toBe(uid);
    const record = await client.readContract({
      address: c.SchemaRegistry.address,
      abi: schemaRegistryAbi,
      functionName: "getSchema",
      args: [uid],
    });
    expect(record).toEqual({ uid, resolver: zeroAddress, revocable: false, schema: RATING_SCHEMA });
  });

  it("defines the achievements", async () => {
    const expected: [number, string, string, number, boolean][] = [
      [1, "First Mission", "Milestone", 25, true],
      [2, "Early Game", "Level", 50, true],
      [3, "Mid Game", "Level", 100, true],
      [4, "Late Game", "Level", 200, true],
      [5, "Prestige", "Level", 400, true],
      [6, "Legend", "Level", 1000, true],
      [7, "Ten Missions", "Milestone", 50, true],
      [8, "Perfect Five", "Reputation", 10, true],
      [9, "Guild Founder", "Community", 25, true],
      [10, "Peacemaker", "Community", 50, true],
      [100, "Pioneer", "Collectible", 0, false],
    ];
    for (const [id, name, achievementType, xpReward, soulbound] of expected) {
      const a = await client.readContract({
        address: c.AchievementNFT.address,
        abi: achievementNftAbi,
        functionName: "getAchievement",
        args: [BigInt(id)],
      });
      expect(a, `achievement ${id}`).toMatchObject({ name, achievementType, xpReward, soulbound });
      expect(a.image).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(a.requirements.length).toBeGreaterThan(0);
    }
  });

  it("is harmless when run again: same addresses, no transaction, balances unchanged", async () => {
    // Files that ran before may have spent the funded accounts' tUSDC: a first run tops them up
    // again (and only that), then a second run must find nothing to do.
    const converged = await deploy({ rpcUrl, deploymentFile });
    expect(converged).toEqual(deployment);
    for (const balance of await balances()) expect(balance).toBeGreaterThanOrEqual(LOCAL_BALANCE);

    const blockBefore = await client.getBlockNumber({ cacheTime: 0 });
    const balancesBefore = await balances();
    const fileBefore = fs.readFileSync(deploymentFile, "utf8");

    const again = await deploy({ rpcUrl, deploymentFile });

    expect(again).toEqual(deployment);
    expect(fs.readFileSync(deploymentFile, "utf8")).toBe(fileBefore);
    expect(await client.getBlockNumber({ cacheTime: 0 }), "no transaction was mined").toBe(blockBefore);
    expect(await balances()).toEqual(balancesBefore);
  });
});
