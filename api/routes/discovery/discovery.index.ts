// Feed, search, nearby, presence (issue 7).
import { createRouter } from "../../lib/create-app.ts";

export const discoveryRouter = () => createRouter();
