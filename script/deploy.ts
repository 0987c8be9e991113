// `npm run deploy`: deploys (or completes) the marketplace on RPC_URL and writes DEPLOYMENT_FILE.
// Secrets come only from the environment (DEPLOYER_PRIVATE_KEY; on the local chain 31337 anvil's
// well-known account 0 is the default). See script/Deploy.s.sol for every variable.
import { deploy } from "./lib/deploy.ts";

const rpcUrl = process.env.RPC_URL ?? "http://127.0.0.1:8545";
const started = Date.now();
try {
  const deployment = await deploy({ rpcUrl, log: (line) => console.log(`  ${line}`) });
  console.log(`\nDeployment on chain ${deployment.chainId} (${((Date.now() - started) / 1000).toFixed(1)} s):`);
  for (const [name, { address, startBlock }] of Object.entries(deployment.contracts)) {
    console.log(`  ${name.padEnd(19)} ${address}  from block ${startBlock}`);
  }
  console.log(`  rating schema       ${deployment.ratingSchemaUid}`);
} catch (err) {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
}
