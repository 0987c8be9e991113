// The expected access of every route of the API (the authorization matrix). The test
// (security-authz.test.ts) enumerates the real router (`app.routes`) and fails when a route has no row
// here, so a new route cannot ship without a decision about who may call it.
//
// Sources: the spec's Authentication part (evidence upload, guild join/leave need a token; the feed and
// /users/me are personal; only the curator publishes; only the poster cancels/approves; either party
// disputes) and docs/decisions.md (a presented but invalid token is 401 even on public endpoints;
// notifications of another user are 404; resolver/appeals rules; rating rules; guild rules).
//
// Cases per route: no token, an expired token, a tampered token (all three: 401 UNAUTHORIZED unless
// public, where "no token" is allowed), another user (for owner/role routes: the documented 403/404
// code), and the right user or role (the documented success).

/** The actors of the fixture. */
export type Who =
  | "poster" // anvil #2: posts the fixture missions, party of the disputes
  | "performer" // anvil #3: performs them
  | "stranger" // anvil #4: signed in, no relation to anything
  | "curator" // anvil #1: admin and curator of demo-guild
  | "resolver" // anvil #9: RESOLVER_ROLE
  | "appeals" // anvil #0: APPEALS_ROLE (the relayer's account; it only signs in here, it never sends)
  | "poster2" // anvil #5 and #6: parties of the investigating/resolved/appealed disputes
  | "performer2"
  | "vault1" // fresh accounts for the vault delete
  | "vault2";

/** Ids created by the fixture (filled in by the test's beforeAll). */
export interface Fixture {
  users: Record<Who, { id: string; address: string }>;
  missionOpen: string; // Open, posted through the API by the poster, with a location
  missionToAccept: string; // Open (poster)
  missionToCancel: string; // Open (poster)
  missionAccepted: string; // Accepted by the performer
  missionSubmitted: string; // Submitted (to approve)
  missionToDispute: string; // Submitted (to dispute)
  missionCompleted: string; // Completed (to rate)
  missionGuild: string; // Open mission of demo-guild, posted by the curator
  guild: string; // demo-guild's UUID
  disputePending: string;
  disputeInvestigating: string; // poster2/performer2, taken by the resolver
  disputeResolved: string; // poster2/performer2, PosterWins, not appealed
  disputeAppealed: string; // poster2/performer2, appealed by performer2
  notificationOfPoster: string;
  webhookOfPoster: string; // an endpoint registered by the poster
  ratingId?: string; // set when the rating route's right-user call succeeds
}

export interface Req {
  path: string;
  body?: unknown;
  /** A multipart upload instead of JSON. */
  form?: Record<string, string | Blob>;
}

export type Access =
  | { kind: "public" }
  | { kind: "user" } // any signed-in user, acting on their own data
  | { kind: "owner" | "role"; rule: string; otherStatus: number; otherCode: string };

export interface RouteSpec {
  access: Access;
  /** Who makes the "right" call, and who the "other" one (default: stranger). */
  right: Who;
  other?: Who;
  rightStatus: number;
  /** Error code expected when rightStatus is an error (e.g. finalize before the deadline). */
  rightCode?: string;
  req: (f: Fixture) => Req;
}

const publicGet = (path: (f: Fixture) => string, rightStatus = 200): RouteSpec => ({
  access: { kind: "public" },
  right: "stranger",
  rightStatus,
  req: (f) => ({ path: path(f) }),
});
const user = (rightStatus: number, req: (f: Fixture) => Req, right: Who = "poster", other: Who = "stranger"): RouteSpec => ({
  access: { kind: "user" },
  right,
  other,
  rightStatus,
  req,
});
const guarded = (
  kind: "owner" | "role",
  rule: string,
  right: Who,
  other: Who,
  otherStatus: number,
  otherCode: string,
  rightStatus: number,
  req: (f: Fixture) => Req,
  rightCode?: string,
): RouteSpec => ({ access: { kind, rule, otherStatus, otherCode }, right, other, rightStatus, rightCode, req });

const SOLANA = "11111111111111111111111111111111";
/** A proposal id that does not exist. */
const NO_PROPOSAL = "00000000-0000-4000-8000-000000000000";
const DECISION = { outcome: "PosterWins", resolution: "The proof does not match the mission." };

/**
 * Keyed by `METHOD path` as the router spells it (`:param`). Order matters: rows run top to bottom,
 * so reads of a resource come before the writes that change it.
 */
export const MATRIX: Record<string, RouteSpec> = {
  // ---- system
  "GET /health": publicGet(() => "/health"),
  "GET /config": publicGet(() => "/config"),
  "GET /metrics": publicGet(() => "/metrics"),
  "GET /openapi.json": publicGet(() => "/openapi.json"),
  "GET /docs": publicGet(() => "/docs"),
  "GET /docs/assets/:file": publicGet(() => "/docs/assets/swagger-ui.css"),
  "GET /graphql/assets/init.js": publicGet(() => "/graphql/assets/init.js"),
  "GET /graphql/assets/page.css": publicGet(() => "/graphql/assets/page.css"),
  "GET /graphql/assets/:file": publicGet(() => "/graphql/assets/graphiql.css"),
  "GET /graphql": publicGet(() => "/graphql?query=%7B__typename%7D"),
  "POST /graphql": { access: { kind: "public" }, right: "stranger", rightStatus: 200, req: () => ({ path: "/graphql", body: { query: "{ __typename }" } }) },

  // ---- auth (public by nature; "right" = a real sign-in of that user)
  "POST /auth/message": { access: { kind: "public" }, right: "stranger", rightStatus: 200, req: (f) => ({ path: "/auth/message", body: { address: f.users.stranger.address } }) },
  "POST /auth/verify": { access: { kind: "public" }, right: "stranger", rightStatus: 200, req: () => ({ path: "/auth/verify", body: "SIGN_IN" }) },

  // ---- missions: reads are public
  "GET /missions": publicGet(() => "/missions"),
  "GET /missions/:id": publicGet((f) => `/missions/${f.missionOpen}`),
  "GET /missions/nearby": publicGet(() => "/missions/nearby?latitude=48.85&longitude=2.35"),
  "GET /feed/search": publicGet(() => "/feed/search?q=matrix"),
  "GET /feed": user(200, () => ({ path: "/feed" })),
  "POST /feed/views": user(201, (f) => ({ path: "/feed/views", body: { missionId: f.missionOpen, dwellMs: 1500 } })),
  // A stranger's answer would be the distance to the hidden exact point (three of them locate it).
  "POST /missions/:id/verify-presence": guarded("owner", "the mission's performer or poster", "poster", "stranger", 403, "FORBIDDEN", 200, (f) => ({ path: `/missions/${f.missionOpen}/verify-presence`, body: { latitude: 48.8566, longitude: 2.3522, accuracy: 10 } })),
  "POST /missions": user(201, () => ({ path: "/missions", body: { title: "Matrix mission", description: "made by the authorization matrix", rewardAmount: "1.5", category: "test", expiresIn: 86_400 } })),
  "PATCH /missions/:id": guarded("owner", "the poster", "poster", "stranger", 403, "NOT_POSTER", 200, (f) => ({ path: `/missions/${f.missionOpen}`, body: { title: "Edited by the poster" } })),
  "POST /missions/:id/accept": guarded("role", "anyone but the poster", "performer", "poster", 403, "INELIGIBLE", 200, (f) => ({ path: `/missions/${f.missionToAccept}/accept` })),
  "POST /missions/:id/submit": guarded("owner", "the performer", "performer", "stranger", 403, "NOT_PERFORMER", 200, (f) => ({ path: `/missions/${f.missionAccepted}/submit`, body: { proofType: "text", proofData: "done" } })),
  "POST /missions/:id/approve": guarded("owner", "the poster", "poster", "performer", 403, "NOT_POSTER", 200, (f) => ({ path: `/missions/${f.missionSubmitted}/approve`, body: { rating: 5 } })),
  "POST /missions/:id/cancel": guarded("owner", "the poster", "poster", "stranger", 403, "NOT_POSTER", 200, (f) => ({ path: `/missions/${f.missionToCancel}/cancel` })),
  "POST /missions/:id/dispute": guarded("owner", "either party", "performer", "stranger", 403, "FORBIDDEN", 200, (f) => ({ path: `/missions/${f.missionToDispute}/dispute`, body: { reason: "The poster does not answer." } })),
  // Money in trouble: parties only (anyone else 403 FORBIDDEN). The fixture's Completed mission answers the
  // parties' writes with 409 (INVALID_STATE / NO_OFFER): authorization is what this matrix checks; the
  // flows themselves are settlement.test.ts's.
  "GET /missions/:id/settlement": guarded("owner", "either party", "poster", "stranger", 403, "FORBIDDEN", 200, (f) => ({ path: `/missions/${f.missionCompleted}/settlement` })),
  "POST /missions/:id/settlement": guarded("owner", "either party", "performer", "stranger", 403, "FORBIDDEN", 409, (f) => ({ path: `/missions/${f.missionCompleted}/settlement`, body: { performerAmount: "1" } }), "INVALID_STATE"),
  "DELETE /missions/:id/settlement": guarded("owner", "either party", "performer", "stranger", 403, "FORBIDDEN", 409, (f) => ({ path: `/missions/${f.missionCompleted}/settlement` }), "NO_OFFER"),
  "POST /missions/:id/settlement/accept": guarded("owner", "either party", "poster", "stranger", 403, "FORBIDDEN", 409, (f) => ({ path: `/missions/${f.missionCompleted}/settlement/accept`, body: { performerAmount: "1" } }), "INVALID_STATE"),
  "POST /missions/:id/release": guarded("owner", "the poster", "poster", "stranger", 403, "FORBIDDEN", 409, (f) => ({ path: `/missions/${f.missionCompleted}/release`, body: { amount: "1" } }), "INVALID_STATE"),
  "POST /missions/:id/refund": guarded("owner", "the performer", "performer", "stranger", 403, "FORBIDDEN", 409, (f) => ({ path: `/missions/${f.missionCompleted}/refund`, body: { amount: "1" } }), "INVALID_STATE"),

  // ---- disputes: reads public, actions by role
  "GET /resolver/disputes": publicGet(() => "/resolver/disputes"),
  "GET /resolver/disputes/:id": publicGet((f) => `/resolver/disputes/${f.disputePending}`),
  "GET /resolver/disputes/mission/:missionId": publicGet((f) => `/resolver/disputes/mission/${f.missionToDispute}`),
  "GET /resolver/disputes/user/:userId": publicGet((f) => `/resolver/disputes/user/${f.users.poster.id}`),
  "GET /resolver/queue": publicGet(() => "/resolver/queue"),
  "GET /resolver/queue/resolver/:resolverId": publicGet((f) => `/resolver/queue/resolver/${f.users.resolver.address}`),
  "GET /resolver/stats/:userId": publicGet((f) => `/resolver/stats/${f.users.poster.id}`),
  "POST /resolver/disputes/:id/evidence": guarded("owner", "the party of that side", "poster", "stranger", 403, "NOT_PARTY", 200, (f) => ({
    path: `/resolver/disputes/${f.disputePending}/evidence`,
    form: { type: "poster", evidence: new Blob(["matrix evidence: the photo shows nothing"], { type: "text/plain" }) },
  })),
  "GET /resolver/disputes/:id/evidence": guarded("role", "parties, the assigned resolver, appeals resolvers", "poster", "stranger", 403, "FORBIDDEN", 200, (f) => ({ path: `/resolver/disputes/${f.disputePending}/evidence?type=poster` })),
  "POST /resolver/disputes/:id/take": guarded("role", "RESOLVER_ROLE, not a party", "resolver", "stranger", 403, "NOT_RESOLVER", 200, (f) => ({ path: `/resolver/disputes/${f.disputePending}/take` })),
  "POST /resolver/disputes/:id/resolve": guarded("owner", "the assigned resolver", "resolver", "stranger", 403, "NOT_RESOLVER", 200, (f) => ({ path: `/resolver/disputes/${f.disputeInvestigating}/resolve`, body: DECISION })),
  "POST /resolver/disputes/:id/appeal": guarded("owner", "either party", "performer2", "stranger", 403, "NOT_PARTY", 200, (f) => ({ path: `/resolver/disputes/${f.disputeResolved}/appeal` })),
  "POST /resolver/disputes/:id/appeal/decide": guarded("role", "APPEALS_ROLE, not a party nor the first resolver", "appeals", "stranger", 403, "NOT_APPEALS_RESOLVER", 200, (f) => ({ path: `/resolver/disputes/${f.disputeAppealed}/appeal/decide`, body: DECISION })),
  // Anyone signed in (decisions: a token keeps anonymous callers from spending the relayer's gas); the chain checks the deadline.
  "POST /resolver/disputes/:id/finalize": user(409, (f) => ({ path: `/resolver/disputes/${f.disputeInvestigating}/finalize` }), "stranger", "performer"),
  "POST /resolver/disputes/:id/release": user(409, (f) => ({ path: `/resolver/disputes/${f.disputeAppealed}/release` }), "stranger", "performer"),

  // ---- users, ratings, XP, NFTs
  "GET /users/me": user(200, () => ({ path: "/users/me" })),
  "PATCH /users/me": user(200, () => ({ path: "/users/me", body: { displayName: "Matrix" } })),
  "GET /users/me/link-solana/message": user(200, () => ({ path: `/users/me/link-solana/message?solanaAddress=${SOLANA}` })),
  // A wrong signature passes authentication and is then refused as such (400 INVALID_SIGNATURE).
  "POST /users/me/link-solana": user(400, () => ({ path: "/users/me/link-solana", body: { solanaAddress: SOLANA, signature: "1".repeat(88) } })),
  "GET /users/:id": publicGet((f) => `/users/${f.users.poster.id}`),
  "GET /users/:id/stats": publicGet((f) => `/users/${f.users.poster.id}/stats`),
  "GET /users/:id/ratings": publicGet((f) => `/users/${f.users.poster.address}/ratings`),
  "POST /ratings/mission/:missionId": guarded("owner", "a party of a Completed mission", "poster", "stranger", 403, "FORBIDDEN", 201, (f) => ({ path: `/ratings/mission/${f.missionCompleted}`, body: { score: 5, comment: "great work" } })),
  "POST /ratings": guarded("owner", "a party of a Completed mission", "performer", "stranger", 403, "FORBIDDEN", 201, (f) => ({ path: "/ratings", body: { missionId: f.missionCompleted, score: 4, comment: "fine poster" } })),
  "GET /ratings/mission/:missionId": publicGet((f) => `/ratings/mission/${f.missionCompleted}`),
  "GET /ratings/user/:userId/stats": publicGet((f) => `/ratings/user/${f.users.performer.id}/stats`),
  "GET /ratings/:id/verify": publicGet((f) => `/ratings/${f.ratingId ?? "missing"}/verify`),
  "GET /xp/me": user(200, () => ({ path: "/xp/me" })),
  "POST /xp/me/builder-score/refresh": user(200, () => ({ path: "/xp/me/builder-score/refresh" })),
  "GET /xp/leaderboard": publicGet(() => "/xp/leaderboard"),
  "GET /xp/leaderboard/builders": publicGet(() => "/xp/leaderboard/builders"),
  "GET /xp/:userId": publicGet((f) => `/xp/${f.users.performer.id}`),
  "GET /xp/:userId/ledger": publicGet((f) => `/xp/${f.users.performer.id}/ledger`),
  "GET /nft/achievements": publicGet(() => "/nft/achievements"),
  "GET /nft/:userId": publicGet((f) => `/nft/${f.users.performer.id}`),
  "GET /nft/:userId/achievements": publicGet((f) => `/nft/${f.users.performer.id}/achievements`),
  "GET /nft/:userId/collectibles": publicGet((f) => `/nft/${f.users.performer.id}/collectibles`),

  // ---- guilds
  "GET /guilds": publicGet(() => "/guilds"),
  "GET /guilds/:id": publicGet((f) => `/guilds/${f.guild}`),
  "GET /guilds/:id/members": publicGet((f) => `/guilds/${f.guild}/members`),
  "GET /guilds/:id/board": publicGet((f) => `/guilds/${f.guild}/board`),
  "POST /guilds/:id/board/publish": guarded("role", "a curator of the guild", "curator", "stranger", 403, "FORBIDDEN", 200, (f) => ({ path: `/guilds/${f.guild}/board/publish`, body: { missionId: f.missionGuild, notes: "matrix" } })),
  "POST /guilds/:id/invite": guarded("role", "an officer or admin of the guild", "curator", "stranger", 403, "FORBIDDEN", 200, (f) => ({ path: `/guilds/${f.guild}/invite`, body: { address: f.users.vault1.address } })),
  // Any signed-in user may ask; the level gate (6) and creation itself are in unlocks.test.ts. Here an
  // invalid name, so the call is refused the same way whatever the caller's level.
  "POST /guilds": user(400, () => ({ path: "/guilds", body: { name: "Not A Slug", category: "matrix", guildFeeBps: 0 } }), "stranger", "poster"),
  // Admins only: the stranger is refused before anything else; the admin reaches the member check
  // (vault1 is invited by the invite row, never a member).
  "POST /guilds/:id/members/:userId/roles": guarded("role", "an admin of the guild", "curator", "stranger", 403, "FORBIDDEN", 409, (f) => ({
    path: `/guilds/${f.guild}/members/${f.users.vault1.address}/roles`, body: { isOfficer: true },
  }), "NOT_MEMBER"),
  "POST /guilds/:id/join": user(200, (f) => ({ path: `/guilds/${f.guild}/join` }), "stranger", "performer"),
  // Leaving needs membership: the other user (never joined) gets 409 NOT_MEMBER, the joiner leaves.
  "POST /guilds/:id/leave": guarded("owner", "a member", "stranger", "poster", 409, "NOT_MEMBER", 200, (f) => ({ path: `/guilds/${f.guild}/leave` })),

  // ---- notifications (another user's notification is 404, decisions)
  "GET /notifications": user(200, () => ({ path: "/notifications" })),
  "GET /notifications/unread-count": user(200, () => ({ path: "/notifications/unread-count" })),
  "GET /notifications/preferences": user(200, () => ({ path: "/notifications/preferences" })),
  "POST /notifications/:id/read": guarded("owner", "the recipient", "poster", "stranger", 404, "NOT_FOUND", 200, (f) => ({ path: `/notifications/${f.notificationOfPoster}/read` })),
  "POST /notifications/read-all": user(200, () => ({ path: "/notifications/read-all" })),
  "PATCH /notifications/preferences": user(200, () => ({ path: "/notifications/preferences", body: { marketingUpdates: false } })),
  "POST /notifications/register-device": user(200, () => ({ path: "/notifications/register-device", body: { platform: "ios", token: "matrix-device-token" } })),

  // ---- vault (always the caller's own)
  "POST /vault/initialize": user(200, () => ({ path: "/vault/initialize" })),
  "POST /vault/sync": user(200, () => ({ path: "/vault/sync" })),
  "GET /vault/export": user(200, () => ({ path: "/vault/export" })),
  "GET /vault/permissions": user(200, () => ({ path: "/vault/permissions" })),
  "PATCH /vault/permissions": user(200, () => ({ path: "/vault/permissions", body: { notifications: { marketing: false } } })),

  // ---- wallet set-up and faucet (always the caller's own wallet). The signed flow itself is in
  // wallet-setup.test.ts; here a signed-in caller reaches the signature checks (a bogus signature: 400).
  "GET /wallet/setup": user(200, () => ({ path: "/wallet/setup" })),
  "POST /wallet/setup": {
    ...user(400, () => ({ path: "/wallet/setup", body: { signatures: [{ id: "operator", message: { user: "0x0" }, signature: "0x1234" }] } })),
    rightCode: "VALIDATION_ERROR",
  },
  "POST /faucet": user(200, () => ({ path: "/faucet" })),
  // Last of the wallet rows, by the fresh vault accounts: it revokes the relayer.
  "DELETE /wallet/setup": user(200, () => ({ path: "/wallet/setup" }), "vault1", "vault2"),

  // ---- webhooks (another user's endpoint is 404, decisions)
  "POST /webhooks": user(201, () => ({ path: "/webhooks", body: { url: "https://93.184.215.14/matrix-hook", events: ["mission.accepted"] } })),
  "GET /webhooks": user(200, () => ({ path: "/webhooks" })),
  "GET /webhooks/:id/deliveries": guarded("owner", "the endpoint's owner", "poster", "stranger", 404, "NOT_FOUND", 200, (f) => ({ path: `/webhooks/${f.webhookOfPoster}/deliveries` })),
  "POST /webhooks/:id/rotate-secret": guarded("owner", "the endpoint's owner", "poster", "stranger", 404, "NOT_FOUND", 200, (f) => ({ path: `/webhooks/${f.webhookOfPoster}/rotate-secret` })),
  "DELETE /webhooks/:id": guarded("owner", "the endpoint's owner", "poster", "stranger", 404, "NOT_FOUND", 200, (f) => ({ path: `/webhooks/${f.webhookOfPoster}` })),

  // ---- governance (level 16) and referrals. The fixture has no level-16 user: both sides meet the
  // level gate here; a level-16 wallet's proposals and votes are in governance.test.ts.
  "GET /governance/proposals": publicGet(() => "/governance/proposals"),
  "GET /governance/proposals/:id": publicGet(() => `/governance/proposals/${NO_PROPOSAL}`, 404),
  "POST /governance/proposals": guarded("role", "level 16 (the governance unlock)", "poster", "stranger", 403, "INELIGIBLE", 403, () => ({ path: "/governance/proposals", body: { title: "Matrix", body: "a signal", choices: ["yes", "no"], endsAt: "2099-01-01T00:00:00Z" } }), "INELIGIBLE"),
  "POST /governance/proposals/:id/votes": guarded("role", "level 16 (the governance unlock)", "poster", "stranger", 403, "INELIGIBLE", 403, () => ({ path: `/governance/proposals/${NO_PROPOSAL}/votes`, body: { choice: "yes", signature: `0x${"11".repeat(65)}` } }), "INELIGIBLE"),
  // A referrer that never signed in: refused before anything is sent (a real referral would change
  // the shared accounts' XP for every later file).
  "POST /users/me/referral": { ...user(400, () => ({ path: "/users/me/referral", body: { referrer: "0x000000000000000000000000000000000000dEaD" } })), rightCode: "VALIDATION_ERROR" },

  // Last of all: a vault deletion revokes the caller's tokens.
  "DELETE /vault/delete": user(200, () => ({ path: "/vault/delete", body: { confirmation: "DELETE_ALL_MY_DATA" } }), "vault1", "vault2"),
};
