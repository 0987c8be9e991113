// Wallet set-up (gasless operator approval and escrow permit) and the test-token faucet.
import { createRouter } from "../create-app.ts";
import * as h from "./wallet.handlers.ts";
import * as r from "./wallet.routes.ts";

export const walletRouter = () =>
  createRouter()
    .openapi(r.getSetup, h.getSetup)
    .openapi(r.postSetup, h.postSetup)
    .openapi(r.deleteSetup, h.deleteSetup)
    .openapi(r.faucet, h.faucet);
