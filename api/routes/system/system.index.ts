import { createRouter } from "../create-app.ts";
import * as handlers from "./system.handlers.ts";
import * as routes from "./system.routes.ts";
import { graphiqlPage } from "./graphiql.ts";

export const systemRouter = () => {
  const router = createRouter().openapi(routes.health, handlers.health).openapi(routes.config, handlers.config);
  router.get("/metrics", async (c) => {
    const { registry } = c.get("deps").metrics;
    return c.body(await registry.metrics(), 200, { "Content-Type": registry.contentType });
  });
  // Ponder answers every GET with its CDN-loaded GraphiQL and takes queries only by POST.
  router.get("/graphql", graphiqlPage);
  router.post("/graphql", (c) => c.get("deps").services.indexer.graphql(c.req.raw, new URL(c.req.url).search));
  return router;
};
