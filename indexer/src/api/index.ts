// Ponder's HTTP API: GraphQL at / and /graphql (GET serves GraphiQL). /health, /ready, /status
// and /metrics are built in.
import { db } from "ponder:api";
import schema from "ponder:schema";
import { Hono } from "hono";
import { graphql } from "ponder";

const app = new Hono();
app.use("/graphql", graphql({ db, schema }));
app.use("/", graphql({ db, schema }));

export default app;
