// `npm run demo`: the newcomer's first mission, over REST only, against a running `npm start`.
// Account 1 signs in with SIWE and posts a mission, account 2 accepts and submits proof, account 1
// approves. Every response is printed as the API returns it. Local chain only: it signs with anvil's
// well-known development keys.
//
// `npm run demo -- --fresh`: the same with two newly generated keys that never hold ETH. The poster
// gets test tokens from POST /faucet; both sign the set-up (GET /wallet/setup, sign each step's
// typed data, POST /wallet/setup) and the relayer pays every gas.
import { createPublicClient, http, type LocalAccount } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { anvilAccount } from "./lib/accounts.ts";

const FRESH = process.argv.includes("--fresh");

const API = process.env.API_URL ?? `http://127.0.0.1:${process.env.PORT ?? 3000}`;

async function call(method: string, path: string, body?: unknown, token?: string): Promise<any> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers["Content-Type"] = "application/json";
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(`${API}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const json = await res.json();
  console.log(`\n${method} ${path} -> ${res.status}\n${JSON.stringify(json, null, 2)}`);
  if (!res.ok) throw new Error(`${method} ${path} failed with ${res.status}`);
  return json;
}

async function signIn(account: LocalAccount): Promise<string> {
  const { message } = await call("POST", "/auth/message", { address: account.address });
  const signature = await account.signMessage({ message });
  const { token } = await call("POST", "/auth/verify", { address: account.address, signature });
  return token;
}

const config = await call("GET", "/config");
if (config.chainId !== 31337) throw new Error("npm run demo signs with anvil's public keys: local chain (31337) only");

/** Signs every step the API lists (EIP-712 typed data, as a browser wallet would) and hands them back. */
async function setUpWallet(account: LocalAccount, token: string) {
  const { steps } = await call("GET", "/wallet/setup", undefined, token);
  const signatures = [];
  for (const step of steps.filter((s: { done: boolean }) => !s.done)) {
    signatures.push({ id: step.id, message: step.typedData.message, signature: await account.signTypedData(step.typedData) });
  }
  if (signatures.length) await call("POST", "/wallet/setup", { signatures }, token);
}

const [posterKey, performerKey] = FRESH
  ? [privateKeyToAccount(generatePrivateKey()), privateKeyToAccount(generatePrivateKey())]
  : [anvilAccount(1), anvilAccount(2)];
const poster = await signIn(posterKey);
const performer = await signIn(performerKey);
if (FRESH) {
  await call("POST", "/faucet", undefined, poster);
  await setUpWallet(posterKey, poster);
  await setUpWallet(performerKey, performer);
}

const created = await call(
  "POST",
  "/missions",
  {
    title: "Deliver a parcel across town",
    description: "Pick up at the bakery, drop at the library desk before noon.",
    rewardAmount: "12.500000",
    category: "delivery",
    expiresIn: 24 * 3600,
    location: { latitude: 52.52, longitude: 13.405, radius: 150 },
  },
  poster,
);
const id = created.data.id as string;
await call("POST", `/missions/${id}/accept`, undefined, performer);
await call("POST", `/missions/${id}/submit`, { proofType: "url", proofData: "https://example.org/proof.jpg", notes: "Left at the desk" }, performer);
await call("POST", `/missions/${id}/approve`, { rating: 5, feedback: "Fast and friendly" }, poster);
await call("GET", `/missions/${id}`);
console.log(`\nDone: mission ${id} is Completed; the reward was split as shown in "settlement".`);
if (FRESH) {
  const chain = createPublicClient({ transport: http(process.env.RPC_URL ?? "http://127.0.0.1:8545") });
  for (const [who, a] of [["poster", posterKey], ["performer", performerKey]] as const) {
    console.log(`${who} ${a.address}: ${await chain.getBalance({ address: a.address })} wei of ETH (the relayer paid every gas)`);
  }
}
