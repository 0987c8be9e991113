// Users: profiles (off-chain) over indexed stats (chain), public lookups by id or address, and
// linking a Solana address with a real ed25519 signature.
import { isAddress } from "viem";
import type { z } from "zod";
import { AppError, validationError } from "../../lib/errors.ts";
import type { ProfileRepository } from "../../repositories/profile.repository.ts";
import type { UserRow, UsersRepository } from "../../repositories/users.repository.ts";
import type { LinkSolanaBody, PatchMeBody } from "../../routes/profile/profile.schemas.ts";
import { unlocksAt } from "../../../domain/unlocks.ts";
import { solanaLinkMessage, verifySolanaLink } from "./solana.ts";
import type { PrivacyService } from "../privacy.ts";
import { ratingParties, ratingProfileView, userStatsView, userView, type Subject } from "./views.ts";

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function usersService(deps: { repo: ProfileRepository; users: UsersRepository; privacy: PrivacyService; chainId: number }) {
  const { repo, users } = deps;

  /** An API user id (uuid) or an EVM address -> the address and the user row (if signed up). */
  async function resolve(idOrAddress: string, field = "path.id"): Promise<Subject> {
    if (UUID_RE.test(idOrAddress)) {
      const user = await users.findById(idOrAddress.toLowerCase());
      if (!user) throw new AppError("NOT_FOUND", "User not found");
      return { address: user.evmAddress, user };
    }
    if (isAddress(idOrAddress, { strict: false })) {
      return { address: idOrAddress.toLowerCase(), user: await users.findByAddress(idOrAddress) };
    }
    throw validationError([{ field, reason: "must be a user id (uuid) or a 0x address" }]);
  }
  const self = (user: UserRow): Subject => ({ address: user.evmAddress, user });

  return {
    resolve,
    self,
    async me(user: UserRow) {
      const stats = await repo.userStats(user.evmAddress);
      // No stats row yet: the starting level, as everywhere else.
      return { ...userView(self(user), stats), unlocks: unlocksAt(stats?.level ?? 1) };
    },
    /** `viewer`: the caller's address (none when signed out). */
    async get(idOrAddress: string, viewer?: string) {
      const s = await resolve(idOrAddress);
      const [stats, lens] = await Promise.all([repo.userStats(s.address), deps.privacy.lens(viewer, [s.address])]);
      if (!s.user && !stats) throw new AppError("NOT_FOUND", "User not found");
      return userView(s, stats, lens);
    },
    async patch(user: UserRow, body: z.infer<typeof PatchMeBody>) {
      await repo.updateProfile(user.id, body);
      const fresh = (await users.findById(user.id))!;
      return userView(self(fresh), await repo.userStats(fresh.evmAddress));
    },
    async stats(idOrAddress: string, viewer?: string) {
      const s = await resolve(idOrAddress);
      await deps.privacy.require(viewer, s.address, "stats");
      return userStatsView(await repo.userStats(s.address));
    },
    async ratings(idOrAddress: string, viewer?: string) {
      const s = await resolve(idOrAddress);
      const rows = await repo.ratingsReceived(s.address);
      const lens = await deps.privacy.lens(viewer, ratingParties(rows));
      return rows.map((r) => ratingProfileView(r, lens));
    },
    linkMessage(user: UserRow, solanaAddress: string) {
      return solanaLinkMessage(solanaAddress, user.evmAddress, deps.chainId);
    },
    async linkSolana(user: UserRow, body: z.infer<typeof LinkSolanaBody>) {
      const ok = verifySolanaLink({ ...body, evmAddress: user.evmAddress, chainId: deps.chainId });
      if (!ok) {
        throw new AppError(
          "INVALID_SIGNATURE",
          `signature is not an ed25519 signature by ${body.solanaAddress} of the message "${solanaLinkMessage(body.solanaAddress, user.evmAddress, deps.chainId)}"`,
        );
      }
      if (!(await repo.linkSolana(user.id, body.solanaAddress))) {
        throw new AppError("SOLANA_ADDRESS_IN_USE", "This Solana address is linked to another user");
      }
      const fresh = (await users.findById(user.id))!;
      return userView(self(fresh), await repo.userStats(fresh.evmAddress));
    },
  };
}
export type UsersService = ReturnType<typeof usersService>;
