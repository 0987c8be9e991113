// The vault's permissions object: its shape, defaults and the deep merge of a patch (pure). Read by the
// vault service (which stores it) and the privacy rule (which applies it to other users' views).
import { DEFAULT_VAULT_PERMISSIONS } from "../repositories/users.repository.ts";

export const PRECISIONS = ["exact", "block", "neighborhood"] as const;
export const VISIBILITIES = ["public", "guilds_only", "private"] as const;

export interface VaultPermissions {
  locationSharing: { enabled: boolean; precision: (typeof PRECISIONS)[number]; liveTrackingConsent: boolean };
  profileVisibility: Record<"displayName" | "bio" | "stats" | "missionHistory", (typeof VISIBILITIES)[number]>;
  notifications: { push: boolean; email: boolean; marketing: boolean };
}
export type PermissionsPatch = { [K in keyof VaultPermissions]?: Partial<VaultPermissions[K]> };

export const defaultPermissions = (): VaultPermissions => structuredClone(DEFAULT_VAULT_PERMISSIONS) as VaultPermissions;

/** Deep merge of a validated patch over stored permissions (missing stored keys fall back to defaults). */
export function mergePermissions(stored: unknown, patch: PermissionsPatch): VaultPermissions {
  // Read, never written: every group below is a new object (no structuredClone a user a response).
  const base = DEFAULT_VAULT_PERMISSIONS as VaultPermissions;
  const cur = (stored ?? {}) as Partial<VaultPermissions>;
  const out = {} as Record<string, Record<string, unknown>>;
  for (const k of Object.keys(base) as (keyof VaultPermissions)[]) {
    out[k] = { ...base[k], ...(cur[k] ?? {}), ...(patch[k] ?? {}) };
  }
  return out as unknown as VaultPermissions;
}
