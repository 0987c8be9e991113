// npm run openapi:lint   lint the document GET /openapi.json serves (Redocly, api/redocly.yaml)
// npm run openapi:types  regenerate api/client/openapi-types.ts from it (openapi-typescript)
// npm run openapi:print  print it
import { writeFile } from "node:fs/promises";
import { openApiDocument } from "../api/openapi.ts";
import { CLIENT_TYPES_FILE, clientTypes, lintDocument } from "./lib/openapi.ts";

const command = process.argv[2];
const doc = openApiDocument();
if (command === "lint") {
  const { problems, report } = await lintDocument(doc);
  process.stdout.write(report);
  const count = (severity: string) => problems.filter((p) => p.severity === severity).length;
  console.log(`${count("error")} errors, ${count("warn")} warnings (the deliberate ones: docs/decisions.md, "OpenAPI document")`);
  process.exit(problems.some((p) => p.severity === "error") ? 1 : 0);
} else if (command === "types") {
  await writeFile(CLIENT_TYPES_FILE, await clientTypes(doc));
  console.log(`wrote ${CLIENT_TYPES_FILE}`);
} else if (command === "print") {
  process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
} else {
  console.error("usage: node --import tsx script/openapi.ts lint|types|print");
  process.exit(2);
}
