// Disputes and resolvers (issue 6).
import { createRouter } from "../../lib/create-app.ts";

export const disputesRouter = () => createRouter();
