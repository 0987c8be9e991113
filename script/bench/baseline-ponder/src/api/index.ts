// Ponder 0.16 requires an API file; the baseline serves nothing beyond Ponder's built-in /status.
import { Hono } from "hono";

export default new Hono();
