// Names of the named (prepared) statements the chain repositories run on hot paths. pg keeps a name
// per connection and refuses one name for two texts; the text names the views schema, and tests run
// several APIs with different views schemas in one process, so the name carries the schema.
import crypto from "node:crypto";

/** `prefix` + a short hash of the views schema (statement names stay short and distinct per schema). */
export const preparedName = (prefix: string, chainSchema: string) =>
  `${prefix}_${crypto.createHash("sha1").update(chainSchema).digest("hex").slice(0, 12)}`;
