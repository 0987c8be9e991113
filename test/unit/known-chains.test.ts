import { getAddress } from "viem";
import { describe, expect, it } from "vitest";
import { EnvError, parseEnv } from "../../api/env.ts";
import { normalizeDeployment, type Deployment } from "../../domain/index.ts";
import { easHasDelegationDeadline, KNOWN_CHAINS, knownChain } from "../../indexer/lib/known-chains.ts";
import { canonicalEnv } from "../../script/lib/deploy.ts";

describe("known chains", () => {
  it("lists the four testnets once each, with checksummed addresses and an EAS explorer", () => {
    expect(KNOWN_CHAINS.map((c) => c.chainId).sort((a, b) => a - b)).toEqual([84532, 421614, 11155111, 11155420]);
    for (const c of KNOWN_CHAINS) {
      for (const a of [c.usdc, c.eas, c.schemaRegistry]) expect(getAddress(a), `${c.name} ${a}`).toBe(a);
      expect(c.easExplorer).toMatch(/^https:\/\/[a-z-]+\.easscan\.org$/);
    }
    expect(knownChain(84532)?.easExplorer).toBe("https://base-sepolia.easscan.org");
    expect(knownChain(31337)).toBeUndefined();
  });

  it("gives the deploy the canonical addresses on a known chain only", () => {
    expect(canonicalEnv(421614)).toEqual({
      STABLECOIN_ADDRESS: "0x75faf114eafb1BDbe2F0316DF893fd58CE46AA4d",
      EAS_ADDRESS: "0x2521021fc8BF070473E1e1801D3c7B4aB701E1dE",
      SCHEMA_REGISTRY_ADDRESS: "0x45CB6Fa0870a8Af06796Ac15915619a0f22cd475",
    });
    expect(canonicalEnv(31337)).toEqual({});
  });

  it("knows which EAS versions take a deadline in delegated attestations", () => {
    expect(easHasDelegationDeadline("0.26")).toBe(false);
    expect(easHasDelegationDeadline("1.0.2")).toBe(false);
    expect(easHasDelegationDeadline("1.2.0")).toBe(true);
    expect(easHasDelegationDeadline("1.3.0")).toBe(true);
  });
});

describe("deployment file", () => {
  it("reads a file written before the stablecoin entry was renamed", () => {
    const entry = { address: "0x0000000000000000000000000000000000000001" as const, startBlock: 1 };
    const legacy = { chainId: 31337, contracts: { TestStablecoin: entry, EAS: entry } } as unknown as Deployment;
    const d = normalizeDeployment(legacy);
    expect(d.contracts.Stablecoin).toEqual(entry);
    expect(d.contracts).not.toHaveProperty("TestStablecoin");
  });
});

describe("TLS settings", () => {
  const base = { DATABASE_URL: "postgres://localhost/x" };
  it("needs the certificate and the key together", () => {
    expect(() => parseEnv({ ...base, TLS_CERT_FILE: "cert.pem" })).toThrow(EnvError);
    expect(() => parseEnv({ ...base, TLS_KEY_FILE: "key.pem" })).toThrow(/TLS_CERT_FILE/);
    expect(parseEnv({ ...base, TLS_CERT_FILE: "c.pem", TLS_KEY_FILE: "k.pem" }).TLS_KEY_FILE).toBe("k.pem");
  });
});
