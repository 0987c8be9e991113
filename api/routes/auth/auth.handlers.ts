import type { AppRouteHandler } from "../../app-types.ts";
import type * as routes from "./auth.routes.ts";

export const message: AppRouteHandler<typeof routes.message> = async (c) => {
  const { address } = c.req.valid("json");
  return c.json(await c.get("deps").services.auth.createMessage(address, c.get("clientIp")), 200);
};

export const verify: AppRouteHandler<typeof routes.verify> = async (c) => {
  const { address, signature } = c.req.valid("json");
  const { token, user } = await c.get("deps").services.auth.verify(address, signature);
  c.get("logger").info("signed in", { userId: user.id });
  return c.json({ token }, 200);
};
