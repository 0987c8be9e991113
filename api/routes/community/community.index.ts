// Guilds, notifications, vault.
import { createRouter } from "../create-app.ts";
import { guildsRouter } from "./guilds.index.ts";
import { notificationsRouter } from "./notifications.index.ts";
import { vaultRouter } from "./vault.index.ts";

export const communityRouter = () =>
  createRouter().route("/", guildsRouter()).route("/", notificationsRouter()).route("/", vaultRouter());
