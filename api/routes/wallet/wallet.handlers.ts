import type { Address } from "viem";
import type { AppEnv, AppRouteHandler } from "../../app-types.ts";
import type { SetupSignature } from "../../services/wallet/wallet-setup.service.ts";
import type * as r from "./wallet.routes.ts";

type Ctx = { get: ((k: "deps") => AppEnv["Variables"]["deps"]) & ((k: "user") => AppEnv["Variables"]["user"]) };
const services = (c: Ctx) => c.get("deps").services;
/** requireUser() ran first: a user is there. */
const wallet = (c: Ctx) => c.get("user")!.evmAddress as Address;

export const getSetup: AppRouteHandler<typeof r.getSetup> = async (c) => c.json(await services(c).walletSetup.status(wallet(c)), 200);

export const postSetup: AppRouteHandler<typeof r.postSetup> = async (c) => {
  const { signatures } = c.req.valid("json");
  return c.json(await services(c).walletSetup.submit(wallet(c), signatures as SetupSignature[]), 200);
};

export const deleteSetup: AppRouteHandler<typeof r.deleteSetup> = async (c) => c.json(await services(c).walletSetup.revoke(wallet(c)), 200);

export const faucet: AppRouteHandler<typeof r.faucet> = async (c) => c.json(await services(c).faucet.drip(wallet(c)), 200);
