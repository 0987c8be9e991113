// Users, ratings, XP, NFTs (issue 5).
import { createRouter } from "../../lib/create-app.ts";

export const profileRouter = () => createRouter();
