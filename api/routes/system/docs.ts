// Interactive API reference at /docs, served from the swagger-ui-dist package (no CDN).
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { Hono } from "hono";
import { createRequire } from "node:module";
import type { AppEnv } from "../../app-types.ts";
import { DOCUMENT_HEADERS, htmlCsp } from "../../middlewares/security.ts";

const require = createRequire(import.meta.url);
const assetsDir: string = require("swagger-ui-dist").getAbsoluteFSPath();
const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
  "swagger-ui-standalone-preset.js": "text/javascript; charset=utf-8",
  "favicon-32x32.png": "image/png",
};

const page = (specUrl: string) => `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8" />
  <title>Mission marketplace API</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css" />
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png" />
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script>
    window.ui = SwaggerUIBundle({ url: ${JSON.stringify(specUrl)}, dom_id: "#swagger-ui", deepLinking: true });
  </script>
</body>
</html>`;

export function docsRouter() {
  const app = new Hono<AppEnv>();
  // The page states its own policy (the request path gives everything else the API's): derived from it.
  const html = page("/openapi.json");
  const csp = htmlCsp(html);
  app.get("/docs", (c) => c.html(html, 200, { ...DOCUMENT_HEADERS, "Content-Security-Policy": csp }));
  app.get("/docs/assets/:file", async (c) => {
    const file = c.req.param("file");
    const type = ASSETS[file];
    if (!type) return c.notFound();
    const body = await readFile(join(assetsDir, file));
    return c.body(body, 200, { "Content-Type": type, "Cache-Control": "public, max-age=86400" });
  });
  return app;
}
