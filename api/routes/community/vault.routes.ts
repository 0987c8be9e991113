import { createRoute, z } from "@hono/zod-openapi";
import { bearer, errorResponses } from "../../lib/openapi-schemas.ts";
import { requireUser } from "../../middlewares/auth.ts";
import { PRECISIONS, VISIBILITIES } from "../../services/vault.service.ts";

const tags = ["Vault"];
const json = <T extends z.ZodTypeAny>(schema: T, description: string) => ({ description, content: { "application/json": { schema } } });
const auth = { security: bearer, middleware: requireUser() };
const errs = errorResponses(401, 429);

const visibility = z.enum(VISIBILITIES);
const LocationSharing = z.object({ enabled: z.boolean(), precision: z.enum(PRECISIONS), liveTrackingConsent: z.boolean() });
const ProfileVisibility = z.object({ displayName: visibility, bio: visibility, stats: visibility, missionHistory: visibility });
const NotificationPerms = z.object({ push: z.boolean(), email: z.boolean(), marketing: z.boolean() });
export const Permissions = z
  .object({ locationSharing: LocationSharing, profileVisibility: ProfileVisibility, notifications: NotificationPerms })
  .openapi("VaultPermissions");
const PermissionsPatch = z
  .object({
    locationSharing: LocationSharing.partial().strict().optional(),
    profileVisibility: ProfileVisibility.partial().strict().optional(),
    notifications: NotificationPerms.partial().strict().optional(),
  })
  .strict()
  .refine((v) => Object.keys(v).length > 0, "send at least one permission group")
  .openapi("VaultPermissionsPatch");

const items = z.array(z.record(z.string(), z.unknown()));
const Export = z
  .object({
    exportedAt: z.string(),
    user: z.object({ id: z.string(), evmAddress: z.string(), displayName: z.string(), bio: z.string(), createdAt: z.string() }),
    missions: z.object({ posted: items.openapi({ description: "Mission single views" }), performed: items }),
    xp: z.object({ total: z.number(), level: z.number(), history: items.openapi({ description: "XP ledger entries (on-chain)" }) }),
    guilds: items.openapi({ description: "Active guild memberships" }),
    achievements: items.openapi({ description: "Soulbound achievement NFTs" }),
    ratings: z.object({ given: items, received: items }).openapi({ description: "On-chain attestations with the off-chain comment text" }),
    disputes: items,
    notifications: z.object({ preferences: z.record(z.string(), z.boolean()) }),
  })
  .openapi("VaultExport");

export const initialize = createRoute({
  method: "post", path: "/vault/initialize", operationId: "initializeVault", tags, summary: "Create the caller's vault (idempotent; done at account creation)", ...auth,
  responses: { 200: json(z.object({ success: z.boolean(), message: z.string() }), "Initialized or already there"), ...errs },
});
export const sync = createRoute({
  method: "post", path: "/vault/sync", operationId: "syncVault", tags, summary: "Rebuild the vault's cached summary from current state", ...auth,
  responses: {
    200: json(
      z.object({
        success: z.boolean(), lastSyncedAt: z.string(),
        summary: z.record(z.string(), z.number()).openapi({ description: "Extension: counts per data category" }),
      }),
      "Synced",
    ),
    ...errs,
  },
});
export const exportData = createRoute({
  method: "get", path: "/vault/export", operationId: "exportVault", tags, summary: "Full data export (JSON); logged, logs kept 90 days", ...auth,
  responses: { 200: json(Export, "The export"), ...errs },
});
export const remove = createRoute({
  method: "delete", path: "/vault/delete", operationId: "deleteVault", tags, summary: "Delete all off-chain personal data (irreversible; on-chain data stays)", ...auth,
  request: {
    body: { required: true, content: { "application/json": { schema: z.object({ confirmation: z.string().openapi({ example: "DELETE_ALL_MY_DATA" }) }) } } },
  },
  responses: {
    200: json(z.object({ success: z.boolean(), message: z.string(), deletedAt: z.string(), note: z.string() }), "Deleted"),
    ...errorResponses(400, 401, 429),
  },
});
export const getPermissions = createRoute({
  method: "get", path: "/vault/permissions", operationId: "getVaultPermissions", tags, summary: "The caller's vault permissions", ...auth,
  responses: { 200: json(Permissions, "Permissions"), ...errs },
});
export const patchPermissions = createRoute({
  method: "patch", path: "/vault/permissions", operationId: "updateVaultPermissions", tags, summary: "Deep-merge a partial permissions object", ...auth,
  request: { body: { required: true, content: { "application/json": { schema: PermissionsPatch } } } },
  responses: { 200: json(Permissions, "The full permissions after the merge"), ...errorResponses(400, 401, 429) },
});
