// Guilds, notifications, vault (issue 5).
import { createRouter } from "../../lib/create-app.ts";

export const communityRouter = () => createRouter();
