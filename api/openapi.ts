// The API's routes and the OpenAPI document made from them. Needs no environment, so scripts and tests
// can produce the same document that GET /openapi.json serves.
import { createRouter } from "./routes/create-app.ts";
import { authRouter } from "./routes/auth/auth.index.ts";
import { communityRouter } from "./routes/community/community.index.ts";
import { discoveryRouter } from "./routes/discovery/discovery.index.ts";
import { disputesRouter } from "./routes/disputes/disputes.index.ts";
import { governanceRouter } from "./routes/governance/governance.index.ts";
import { missionsRouter } from "./routes/missions/missions.index.ts";
import { profileRouter } from "./routes/profile/profile.index.ts";
import { systemRouter } from "./routes/system/system.index.ts";
import { walletRouter } from "./routes/wallet/wallet.index.ts";
import { webhooksRouter } from "./routes/webhooks/webhooks.index.ts";

/** Every documented route; the app mounts it at / and at /v2. */
export function apiRouter() {
  const api = createRouter();
  api.openAPIRegistry.registerComponent("securitySchemes", "bearerAuth", {
    type: "http",
    scheme: "bearer",
    bearerFormat: "JWT",
    description: "The token from POST /auth/verify (Sign-In with Ethereum), valid 24 h",
  });
  return api
    .route("/", systemRouter())
    .route("/", authRouter())
    // discovery before missions: /missions/nearby must not match /missions/:id
    .route("/", discoveryRouter())
    .route("/", missionsRouter())
    .route("/", disputesRouter())
    .route("/", profileRouter())
    .route("/", communityRouter())
    .route("/", walletRouter())
    .route("/", webhooksRouter())
    .route("/", governanceRouter());
}

export type ApiRouter = ReturnType<typeof apiRouter>;

export function openApiDocument(api: ApiRouter = apiRouter()) {
  return api.getOpenAPI31Document({
    openapi: "3.1.0",
    info: {
      title: "Mission marketplace API",
      version: "1.0.0",
      description: "Every path is also served under /v2. Errors: { error: { code, message } }. Real time: WebSocket /ws (optional ?token=<JWT>); JSON frames { event, data }; client events subscribe:geohash / unsubscribe:geohash { geohash }; server events ready, subscribed, unsubscribed, mission:created { mission }, mission:updated { missionId, state, mission }, error { code, message } (see README).",
    },
    servers: [{ url: "/" }, { url: "/v2" }],
  });
}
