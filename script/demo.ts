// `npm run demo`: the newcomer's first mission, over REST only, against a running `npm start`.
// Account 1 signs in with SIWE and posts a mission, account 2 accepts and submits proof, account 1
// approves. Every response is printed as the API returns it. Local chain only: it signs with anvil's
// well-known development keys.
import type { LocalAccount } from "viem";
import { anvilAccount } from "./lib/accounts.ts";

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

const poster = await signIn(anvilAccount(1));
const performer = await signIn(anvilAccount(2));

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
