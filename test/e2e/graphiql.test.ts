// /graphql in a real browser (Debian's chromium, headless) with every request outside the API refused:
// the page must render the editor from the server's own files, under a CSP that names only 'self'.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chromium, type Browser } from "playwright-core";
import { startTestApi, type TestApi } from "./api-helpers.ts";

const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

describe("GraphiQL offline", () => {
  let api: TestApi;
  let browser: Browser;

  beforeAll(async () => {
    if (!fs.existsSync(CHROMIUM)) {
      throw new Error(`no browser at ${CHROMIUM}: install Debian's chromium (apt-get install -y chromium) or set CHROMIUM_PATH`);
    }
    api = await startTestApi({}, { indexer: "shared" });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
  });

  afterAll(async () => {
    await browser?.close();
    await api?.stop();
  });

  it("renders the editor and runs a query with no network but the API", async () => {
    const page = await browser.newPage();
    const foreign: string[] = [];
    const cspViolations: string[] = [];
    await page.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(api.url) || url.startsWith("data:")) return route.continue();
      foreign.push(url);
      return route.abort("internetdisconnected");
    });
    page.on("console", (m) => {
      if (m.text().includes("Content Security Policy")) cspViolations.push(m.text());
    });
    const res = await page.goto(`${api.url}/graphql`);
    expect(res?.status()).toBe(200);
    const csp = res?.headers()["content-security-policy"] ?? "";
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/https?:|unsafe-inline|unsafe-eval/);

    await page.waitForSelector(".graphiql-container .graphiql-query-editor", { timeout: 30_000 });
    expect(await page.locator("#graphiql").innerText()).not.toContain("Loading…");

    // The editor talks to the proxied Ponder schema: type a query, run it, read the result pane.
    await page.locator(".graphiql-query-editor .CodeMirror").first().click();
    await page.keyboard.press("Control+A");
    await page.keyboard.type("{ __typename");
    await page.locator(".graphiql-execute-button").click();
    await page.locator(".graphiql-response").filter({ hasText: "Query" }).waitFor({ timeout: 30_000 });
    expect(await page.locator(".graphiql-response").innerText()).toContain('"__typename": "Query"');

    expect(foreign, "requests outside the API").toEqual([]);
    expect(cspViolations).toEqual([]);
  }, 120_000);

  it("serves this page for every GET (Ponder's would load a CDN) and GraphQL by POST", async () => {
    const get = await fetch(`${api.url}/graphql?query=${encodeURIComponent("{ __typename }")}`, { headers: { accept: "application/json" } });
    expect(get.headers.get("content-security-policy")).toContain("script-src 'self'");
    expect(await get.text()).not.toContain("cdn.jsdelivr.net");
    const post = await fetch(`${api.url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "text/html,application/json" },
      body: JSON.stringify({ query: "{ __typename }" }),
    });
    expect(await post.json()).toEqual({ data: { __typename: "Query" } });
  });
});
