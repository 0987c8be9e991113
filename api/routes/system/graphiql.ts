// GraphiQL at /graphql for browsers, served from node_modules like /docs: Ponder's own page loads React
// and GraphiQL from a CDN and shows "Loading…" forever without internet. Every script and style is a
// file of this server, so the page's CSP names no other origin and needs no inline script.
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { Context } from "hono";
import { Hono } from "hono";
import type { AppEnv } from "../../app-types.ts";
import { DOCUMENT_HEADERS } from "../../middlewares/security.ts";

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

const JS = "text/javascript; charset=utf-8";
const ASSETS: Record<string, { path: () => string; type: string }> = {
  "react.js": { path: () => join(packageDir("react"), "umd/react.production.min.js"), type: JS },
  "react-dom.js": { path: () => join(packageDir("react-dom"), "umd/react-dom.production.min.js"), type: JS },
  "graphiql.js": { path: () => join(packageDir("graphiql"), "graphiql.min.js"), type: JS },
  "graphiql.css": { path: () => join(packageDir("graphiql"), "graphiql.min.css"), type: "text/css; charset=utf-8" },
};

// The editor posts to the path the page was opened at (/graphql or /v2/graphql), which proxies to Ponder.
const INIT = `const root = ReactDOM.createRoot(document.getElementById("graphiql"));
root.render(React.createElement(GraphiQL, {
  fetcher: GraphiQL.createFetcher({ url: window.location.pathname }),
  defaultEditorToolsVisibility: false,
}));
`;

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <title>Mission marketplace GraphQL</title>
  <link rel="stylesheet" href="/graphql/assets/graphiql.css" />
  <link rel="stylesheet" href="/graphql/assets/page.css" />
</head>
<body>
  <div id="graphiql">Loading…</div>
  <script src="/graphql/assets/react.js"></script>
  <script src="/graphql/assets/react-dom.js"></script>
  <script src="/graphql/assets/graphiql.js"></script>
  <script src="/graphql/assets/init.js"></script>
</body>
</html>`;

const PAGE_CSS = "html, body { height: 100%; margin: 0; } #graphiql { height: 100vh; }\n";

/** Network sources: this server only. The stylesheet embeds its fonts and icons as data: URLs. */
export const GRAPHIQL_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "font-src 'self' data:",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join("; ");

export const graphiqlPage = (c: Context<AppEnv>) =>
  c.html(PAGE, 200, { ...DOCUMENT_HEADERS, "Content-Security-Policy": GRAPHIQL_CSP });

export function graphiqlAssetsRouter() {
  const app = new Hono<AppEnv>();
  const cache = { "Cache-Control": "public, max-age=86400" };
  app.get("/graphql/assets/init.js", (c) => c.body(INIT, 200, { "Content-Type": JS, ...cache }));
  app.get("/graphql/assets/page.css", (c) => c.body(PAGE_CSS, 200, { "Content-Type": "text/css; charset=utf-8", ...cache }));
  app.get("/graphql/assets/:file", async (c) => {
    const asset = ASSETS[c.req.param("file")];
    if (!asset) return c.notFound();
    return c.body(await readFile(asset.path()), 200, { "Content-Type": asset.type, ...cache });
  });
  return app;
}
