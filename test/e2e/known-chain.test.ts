// Deploying onto a known testnet: an anvil with Base Sepolia's chain id and the canonical EAS,
// SchemaRegistry and a 6-decimal permit token at the real addresses, a freshly generated deployer
// key (no anvil default key anywhere). The deploy must reuse them, register the rating schema only
// when the registry lacks it, and the API must point attestation links at Base Sepolia's EAS explorer.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createPublicClient, createWalletClient, http, parseAbiItem, toHex, zeroAddress, type Hex, type PublicClient } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createServer } from "../../api/app.ts";
import { missionEscrowAbi, schemaRegistryAbi } from "../../abis/index.ts";
import { knownChain } from "../../indexer/lib/known-chains.ts";
import { startAnvil, type AnvilHandle } from "../../script/lib/anvil.ts";
import { placeCanonicalContracts } from "../../script/lib/canonical.ts";
import { deploy, readDeployment, type Deployment } from "../../script/lib/deploy.ts";
import { inject } from "./lane.ts";

const RATING_SCHEMA = "bytes32 missionId,address rater,address ratee,uint8 score,string comment,uint256 timestamp";
const registered = parseAbiItem("event Registered(bytes32 indexed uid, address indexed registerer, (bytes32 uid, address resolver, bool revocable, string schema) schema)");
const baseSepolia = knownChain(84532)!;
const deployerKey = generatePrivateKey();
const deployer = privateKeyToAccount(deployerKey);

let anvil: AnvilHandle;
let client: PublicClient;
let tmp: string;
let placed: Hex; // snapshot: canonical contracts placed, nothing deployed

const rpc = (method: string, params: unknown[]) => client.request({ method, params } as never) as Promise<unknown>;
const registrations = () => client.getLogs({ address: baseSepolia.schemaRegistry, event: registered, fromBlock: 0n });
const deployTo = (file: string) =>
  deploy({ rpcUrl: anvil.rpcUrl, deploymentFile: path.join(tmp, file), env: { DEPLOYER_PRIVATE_KEY: deployerKey } });

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "known-chain-"));
  anvil = await startAnvil({ chainId: baseSepolia.chainId });
  client = createPublicClient({ transport: http(anvil.rpcUrl) }) as PublicClient;
  await rpc("anvil_setBalance", [deployer.address, toHex(10n ** 20n)]);
  await placeCanonicalContracts(anvil.rpcUrl, baseSepolia, { tokenAdmin: deployer.address });
  placed = (await rpc("evm_snapshot", [])) as Hex;
});

afterAll(async () => {
  await anvil?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe("deploy on a known chain (Base Sepolia stand-in)", () => {
  let first: Deployment;

  it("reuses the canonical USDC, EAS and SchemaRegistry and registers the rating schema once", async () => {
    const before = await client.getBlockNumber();
    first = await deployTo("first.json");
    const c = first.contracts;
    expect(first.chainId).toBe(84532);
    expect(first.deployer).toBe(deployer.address);
    expect(c.Stablecoin.address.toLowerCase()).toBe(baseSepolia.usdc.toLowerCase());
    expect(c.EAS.address.toLowerCase()).toBe(baseSepolia.eas.toLowerCase());
    expect(c.SchemaRegistry.address.toLowerCase()).toBe(baseSepolia.schemaRegistry.toLowerCase());
    // The escrow holds the canonical token, not a test token of its own.
    const token = await client.readContract({ address: c.MissionEscrow.address, abi: missionEscrowAbi, functionName: "token" });
    expect(token.toLowerCase()).toBe(baseSepolia.usdc.toLowerCase());
    // The indexer starts at this deployment, not at the canonical contracts' genesis.
    for (const name of ["Stablecoin", "EAS", "SchemaRegistry"] as const) {
      expect(c[name].startBlock, `${name} startBlock`).toBeGreaterThanOrEqual(Number(before));
    }
    const schema = await client.readContract({
      address: baseSepolia.schemaRegistry, abi: schemaRegistryAbi, functionName: "getSchema", args: [first.ratingSchemaUid],
    });
    expect(schema.schema).toBe(RATING_SCHEMA);
    const logs = await registrations();
    expect(logs.map((l) => [l.args.uid, l.args.registerer])).toEqual([[first.ratingSchemaUid, deployer.address]]);
  });

  it("a second deploy reuses everything and sends nothing", async () => {
    const nonce = await client.getTransactionCount({ address: deployer.address });
    const second = await deployTo("first.json");
    expect(second).toEqual(first);
    expect(readDeployment(path.join(tmp, "first.json"))).toEqual(first);
    expect(await client.getTransactionCount({ address: deployer.address })).toBe(nonce);
    expect(await registrations()).toHaveLength(1);
  });

  it("does not register the schema when someone else already did (its UID is deterministic)", async () => {
    await rpc("evm_revert", [placed]);
    const other = privateKeyToAccount(generatePrivateKey());
    await rpc("anvil_setBalance", [other.address, toHex(10n ** 18n)]);
    const wallet = createWalletClient({ account: other, transport: http(anvil.rpcUrl) });
    const hash = await wallet.writeContract({
      chain: null, address: baseSepolia.schemaRegistry, abi: schemaRegistryAbi, functionName: "register", args: [RATING_SCHEMA, zeroAddress, false],
    });
    expect((await client.waitForTransactionReceipt({ hash, pollingInterval: 50 })).status).toBe("success");

    const deployment = await deployTo("preregistered.json");
    expect(deployment.ratingSchemaUid).toBe(first.ratingSchemaUid);
    const logs = await registrations();
    expect(logs.map((l) => l.args.registerer)).toEqual([other.address]);
  });

  it("GET /config names the canonical contracts and Base Sepolia's EAS explorer", async () => {
    const server = await createServer({
      overrides: {
        NODE_ENV: "test", PORT: "0", HOST: "127.0.0.1", LOG_LEVEL: "silent",
        DATABASE_URL: inject("databaseUrl"), RPC_URL: anvil.rpcUrl, CHAIN_ID: "84532",
        DEPLOYMENT_FILE: path.join(tmp, "preregistered.json"), INDEXER_URL: "http://127.0.0.1:9",
        RELAYER_PRIVATE_KEY: deployerKey, JWT_SECRET: "known-chain-secret-known-chain-secret-0123",
        REACTORS_ENABLED: "false", KEEPER_INTERVAL_MS: "0", EXPLORER_URL: "",
      },
    });
    try {
      const { url } = await server.listen(0);
      const res = await fetch(`${url}/config`);
      expect(res.status).toBe(200);
      const body = (await res.json()) as { chainId: number; explorerUrl: string; contracts: Record<string, string> };
      expect(body.chainId).toBe(84532);
      expect(body.explorerUrl).toBe("https://base-sepolia.easscan.org");
      expect(body.contracts.Stablecoin?.toLowerCase()).toBe(baseSepolia.usdc.toLowerCase());
      expect(body.contracts.EAS?.toLowerCase()).toBe(baseSepolia.eas.toLowerCase());
      expect(body.contracts).not.toHaveProperty("TestStablecoin");
    } finally {
      await server.close();
    }
  });
});
