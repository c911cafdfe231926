// Writes docs/api.md and docs/openapi.json from the API document (lib/api/openapi.ts).
import { writeFileSync } from "node:fs";
import path from "node:path";
import { renderApiDocs } from "../lib/api/openapi-docs";

const docs = path.resolve(import.meta.dirname, "..", "docs");
const { markdown, json } = await renderApiDocs();
writeFileSync(path.join(docs, "api.md"), markdown);
writeFileSync(path.join(docs, "openapi.json"), json);
console.log("wrote docs/api.md and docs/openapi.json");
