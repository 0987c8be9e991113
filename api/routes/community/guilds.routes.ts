import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errorResponses, optionalBearer, publicAccess } from "../../lib/openapi-schemas.ts";
import { requireUser } from "../../middlewares/auth.ts";
import { CreateGuildBody, GuildListQuery, PublishBody, RolesBody } from "./guilds.schemas.ts";

const tags = ["Guilds"];
const json = <T extends z.ZodTypeAny>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });
const auth = { security: bearer, middleware: requireUser() };
const writeErrors = errorResponses(400, 401, 403, 404, 409, 429, 503);

export const Guild = z
  .object({
    id: z.string(), onChainId: z.string(), contractAddress: z.string(), name: z.string(), displayName: z.string(),
    description: z.string(), category: z.string(), memberCount: z.number(), totalCompleted: z.number(),
    totalEarned: z.string().openapi({ description: "Integer string, stablecoin base units (guild fees)" }),
    guildReputation: z.number(), guildFeeBps: z.number(),
  })
  .openapi("Guild");
export const Member = z
  .object({
    id: z.string(),
    user: z.object({
      id: z.string(),
      displayName: z.string().nullable().openapi({ description: "null when the member's privacy settings hide it from the caller" }),
      evmAddress: z.string(),
    }),
    isCurator: z.boolean(), isOfficer: z.boolean(), isAdmin: z.boolean(), guildXP: z.number(), joinedAt: z.string(),
  })
  .openapi("GuildMember");
const BoardEntry = z
  .object({
    id: z.string(), missionId: z.string(), curatorId: z.string(), mission: z.record(z.string(), z.unknown()),
    minGuildXP: z.number(), notes: z.string(), featured: z.boolean(), createdAt: z.string(),
  })
  .openapi("GuildBoardEntry");
const GuildDetail = Guild.extend({
  treasury: z.string(), creator: z.string(), createdAt: z.string(),
  minReputation: z.number().int().nullable().openapi({ description: "Reputation a user needs to join (set at creation through the API); null: none" }),
  membership: Member.nullable().openapi({ description: "The caller's active membership (null when anonymous or not a member)" }),
}).openapi("GuildDetail");
const Membership = z.object({ success: z.boolean(), transactionHash: z.string(), guild: Guild, membership: Member.nullable() });

const IdParam = z.object({ id: z.string().min(1).max(64).openapi({ description: "Guild UUID or on-chain id" }) });
const MemberParams = IdParam.extend({
  userId: z
    .string()
    .regex(/^(0x[0-9a-fA-F]{40}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/, "must be a user id (uuid) or a 0x address")
    .openapi({ description: "The member's API user id or address" }),
});
const body = <T extends z.ZodTypeAny>(schema: T) => ({ required: true, content: { "application/json": { schema } } });

export const create = createRoute({
  method: "post", path: "/guilds", operationId: "createGuild", tags, ...auth,
  summary: "Create a guild (level 6: guild_creation); the caller is its admin and treasury (relayed GuildRegistry.createGuild)",
  request: {
    body: body(CreateGuildBody),
  },
  responses: { 201: json(GuildDetail, "The new guild (as GET /guilds/{id})"), ...writeErrors },
});

export const list = createRoute({
  method: "get", path: "/guilds", operationId: "listGuilds", security: publicAccess, tags, summary: "List guilds",
  request: {
    query: GuildListQuery,
  },
  responses: { 200: json(z.array(Guild), "Guilds by on-chain id"), ...errorResponses(400, 429) },
});
export const get = createRoute({
  method: "get", path: "/guilds/{id}", operationId: "getGuild", security: optionalBearer, tags, summary: "A guild, with the caller's membership",
  request: { params: IdParam },
  responses: { 200: json(GuildDetail, "The guild"), ...errorResponses(400, 404, 429) },
});
export const members = createRoute({
  method: "get", path: "/guilds/{id}/members", operationId: "listGuildMembers", security: publicAccess, tags, summary: "Active members",
  request: { params: IdParam },
  responses: { 200: json(z.array(Member), "Members"), ...errorResponses(400, 404, 429) },
});
export const board = createRoute({
  method: "get", path: "/guilds/{id}/board", operationId: "getGuildBoard", security: optionalBearer, tags, summary: "Active board entries (featured first)",
  request: { params: IdParam },
  responses: { 200: json(z.array(BoardEntry), "Board"), ...errorResponses(400, 404, 429) },
});
export const join = createRoute({
  method: "post", path: "/guilds/{id}/join", operationId: "joinGuild", tags, summary: "Join (relayed GuildRegistry.join)", ...auth,
  request: { params: IdParam },
  responses: { 200: json(Membership, "Joined"), ...writeErrors },
});
export const leave = createRoute({
  method: "post", path: "/guilds/{id}/leave", operationId: "leaveGuild", tags, summary: "Leave (relayed GuildRegistry.leave)", ...auth,
  request: { params: IdParam },
  responses: { 200: json(Membership, "Left; membership is null"), ...writeErrors },
});
export const publish = createRoute({
  method: "post", path: "/guilds/{id}/board/publish", operationId: "publishToGuildBoard", tags, summary: "Publish a guild mission to the board (curators only)", ...auth,
  request: {
    params: IdParam,
    body: {
      required: true,
      content: {
        "application/json": {
          schema: PublishBody,
        },
      },
    },
  },
  responses: {
    200: json(z.object({ success: z.boolean(), transactionHash: z.string(), entry: BoardEntry.nullable() }), "Published"),
    ...writeErrors,
  },
});
export const setRoles = createRoute({
  method: "post", path: "/guilds/{id}/members/{userId}/roles", operationId: "setGuildMemberRoles", tags, ...auth,
  summary: "Make a member curator and/or officer, or not (the guild's admins only; curators need level 11); relayed GuildRegistry.setRoles",
  request: {
    params: MemberParams,
    body: body(RolesBody),
  },
  responses: {
    200: json(z.object({ success: z.boolean(), transactionHash: z.string(), member: Member.nullable() }), "The member's new roles"),
    ...writeErrors,
  },
});
export const invite = createRoute({
  method: "post", path: "/guilds/{id}/invite", operationId: "inviteToGuild", tags, ...auth,
  summary: "Invite an address to join (officers and admins): a GUILD_INVITE notification, once per guild and invitee",
  request: {
    params: IdParam,
    body: {
      required: true,
      content: { "application/json": { schema: z.object({ address: z.string().regex(/^0x[0-9a-fA-F]{40}$/, "must be a 0x address of 40 hex digits") }) } },
    },
  },
  responses: {
    200: json(z.object({ success: z.boolean(), invited: z.string(), notified: z.boolean().openapi({ description: "False when the invitee was already invited or turned guild updates off" }) }), "Invited"),
    ...writeErrors,
  },
});
