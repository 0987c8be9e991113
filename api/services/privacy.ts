// What one user's vault settings let another see (docs/decisions.md "Privacy"). The rule is pure
// (`visibleTo`); a lens answers it for every user of one response after one lookup (privacy.repository.ts).
import { AppError } from "../lib/errors.ts";
import type { PrivacyRepository } from "../repositories/privacy.repository.ts";
import { mergePermissions, type VaultPermissions } from "./vault-permissions.ts";

export type ProfileField = keyof VaultPermissions["profileVisibility"];
export type Visibility = VaultPermissions["profileVisibility"][ProfileField];
export type Relation = "self" | "guildmate" | "stranger";

/** `guilds_only`: the owner and whoever shares an active guild membership (on chain) with them. */
export function visibleTo(visibility: Visibility, relation: Relation): boolean {
  return relation === "self" || visibility === "public" || (visibility === "guilds_only" && relation === "guildmate");
}

export interface PrivacyLens {
  shows(address: string | null | undefined, field: ProfileField): boolean;
  /** `value` when the field may be shown to the viewer, else null. */
  field<T>(address: string | null | undefined, field: ProfileField, value: T): T | null;
}

const lower = (a: string | null | undefined) => (a ? a.toLowerCase() : null);

/** Settings by lowercase address; `sharesGuild` is relative to the viewer the map was read for. */
export type PrivacySettings = Map<string, { permissions: VaultPermissions; sharesGuild: boolean }>;

/** A lens as a class: no closures made per response (under tsx each also paid a `__name` property write). */
class Lens implements PrivacyLens {
  readonly #me: string | null;
  readonly #settings: PrivacySettings;
  constructor(me: string | null, settings: PrivacySettings) {
    this.#me = me;
    this.#settings = settings;
  }
  shows(address: string | null | undefined, field: ProfileField): boolean {
    const a = lower(address);
    if (a === null) return true;
    const s = this.#settings.get(a);
    if (!s) return true;
    const relation: Relation = a === this.#me ? "self" : s.sharesGuild ? "guildmate" : "stranger";
    return visibleTo(s.permissions.profileVisibility[field], relation);
  }
  field<T>(address: string | null | undefined, field: ProfileField, value: T): T | null {
    return this.shows(address, field) ? value : null;
  }
}

export function lensOf(viewer: string | null | undefined, settings: PrivacySettings): PrivacyLens {
  return new Lens(lower(viewer), settings);
}

/** The settings map of rows read for one viewer (privacy.repository.ts, or a statement that joins the same columns). */
export function settingsFrom(rows: readonly { address: string; permissions: unknown; sharesGuild: boolean }[]): PrivacySettings {
  return new Map(rows.map((r) => [r.address, { permissions: mergePermissions(r.permissions, {}), sharesGuild: r.sharesGuild }]));
}

/** Everyone sees everything: for the owner's own data and for code that has no viewer to protect. */
export const OPEN_LENS: PrivacyLens = lensOf(null, new Map());

export function privacyService(deps: { repo: PrivacyRepository }) {
  async function settings(viewer: string | null, addresses: (string | null | undefined)[]): Promise<PrivacySettings> {
    const others = [...new Set(addresses.map(lower).filter((a): a is string => a !== null && a !== viewer))];
    return settingsFrom(await deps.repo.settings(others, viewer));
  }
  async function lens(viewer: string | null | undefined, addresses: (string | null | undefined)[]): Promise<PrivacyLens> {
    const me = lower(viewer);
    return lensOf(me, await settings(me, addresses));
  }
  return {
    lens,
    /**
     * For frames serialised once per privacy class (WebSocket): read for no viewer, so `guilds_only`
     * counts as hidden; `lensOf(party, map)` still shows a party their own name.
     */
    /** The user's own location settings (defaults without a vault). */
    async locationSharing(address: string): Promise<VaultPermissions["locationSharing"]> {
      const [row] = await deps.repo.settings([address.toLowerCase()], null);
      return mergePermissions(row?.permissions, {}).locationSharing;
    },
    publicSettings: (addresses: (string | null | undefined)[]) => settings(null, addresses),
    /** 403 FORBIDDEN unless `field` of `owner` is visible to `viewer`. */
    async require(viewer: string | null | undefined, owner: string, field: ProfileField): Promise<void> {
      if (!(await lens(viewer, [owner])).shows(owner, field)) {
        throw new AppError("FORBIDDEN", `This user's ${field} is not visible to you (their privacy settings)`);
      }
    },
  };
}
export type PrivacyService = ReturnType<typeof privacyService>;
