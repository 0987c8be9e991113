import type { Logger } from "./logger.ts";
import type { Deps } from "../deps.ts";
import type { UserRow } from "../repositories/users.repository.ts";

export interface AppEnv {
  Variables: {
    requestId: string;
    logger: Logger;
    deps: Deps;
    /** Set by the auth middleware when a valid bearer token came with the request. */
    user: UserRow | null;
    clientIp: string;
  };
}
