import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument, toOpenApiPath } from "./openapi";
import { renderApiDocs } from "./openapi-docs";
import { API_ROUTES } from "./routes";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
const document = buildOpenApiDocument();
const ROUTE_METHODS = Object.entries(API_ROUTES).flatMap(([pattern, methods]) =>
  methods.map((method) => [pattern, method] as const),
);
const PUBLIC = new Set(["/api/v1/health", "/api/v1/openapi.json"]);

type Response = { content?: Record<string, { schema?: { $ref?: string } }> };
type OperationObject = {
  responses: Record<string, Response>;
  requestBody?: unknown;
  parameters?: { in: string; name: string }[];
};

function operationOf(pattern: string, method: string): OperationObject | undefined {
  const item = document.paths?.[toOpenApiPath(pattern)] as
    Record<string, OperationObject> | undefined;
  return item?.[method.toLowerCase()];
}

/** Every fenced ```json block of a Markdown file, parsed. */
function jsonBlocksOf(file: string): unknown[] {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  return [...text.matchAll(/^```json\n([\s\S]*?)^```$/gm)].map((match) => JSON.parse(match[1]!));
}

/** A validator for one component schema of the document (JSON Schema 2020-12, as 3.1 uses). */
function validatorOf(name: string) {
  const defs = JSON.parse(
    JSON.stringify(document.components?.schemas ?? {}).replaceAll(
      "#/components/schemas/",
      "#/$defs/",
    ),
  ) as Record<string, unknown>;
  expect(defs[name], `component ${name}`).toBeDefined();
  const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true });
  return ajv.compile({ $defs: defs, $ref: `#/$defs/${name}` });
}

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 with a version", () => {
    expect(document.openapi).toBe("3.1.0");
    expect(document.info.version).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it("has exactly the routes and methods of API_ROUTES (the route files)", () => {
    const documented = Object.entries(document.paths ?? {}).flatMap(([openApiPath, item]) =>
      Object.keys(item as object).map((method) => `${method.toUpperCase()} ${openApiPath}`),
    );
    const routes = ROUTE_METHODS.map(([pattern, method]) => `${method} ${toOpenApiPath(pattern)}`);
    expect(documented.sort()).toEqual(routes.sort());
  });

  it.each(ROUTE_METHODS)(
    "%s %s lists its refusals, each with the one error shape",
    (pattern, method) => {
      const operation = operationOf(pattern, method)!;
      const statuses = Object.keys(operation.responses).map(Number);
      const hasParams = pattern.includes(":");
      const isWrite = method !== "GET";
      const expected = new Set<number>([500]);
      if (pattern !== "/api/v1/openapi.json") expected.add(503);
      if (!PUBLIC.has(pattern)) expected.add(401).add(403);
      if (hasParams) expected.add(400).add(404);
      if (isWrite) expected.add(403).add(415);
      if (operation.requestBody) expected.add(400).add(422);
      for (const status of expected) expect(statuses, `${method} ${pattern}`).toContain(status);
      expect(statuses.filter((status) => status < 400)).toHaveLength(1);
      for (const status of statuses.filter((code) => code >= 400)) {
        expect(operation.responses[String(status)]?.content?.["application/json"]?.schema).toEqual({
          $ref: "#/components/schemas/Error",
        });
      }
      const pathParams = (operation.parameters ?? []).filter((param) => param.in === "path");
      expect(pathParams.map((param) => param.name)).toEqual(
        [...pattern.matchAll(/:(\w+)/g)].map((match) => match[1]),
      );
    },
  );

  it("describes the bodies the routes parse: a job, an event batch, a token", () => {
    const jobBody = JSON.stringify(operationOf("/api/v1/jobs", "POST")?.requestBody);
    for (const field of ["cluster", "budgetId", "gpus", "minRuntimeSec", "priority"]) {
      expect(jobBody).toContain(`"${field}"`);
    }
    expect(jobBody).not.toContain('workSec"');
    const kinds = JSON.stringify(document.components?.schemas?.EventBatch);
    for (const kind of ["job.submitted", "job.cancelled", "job.requeued", "node.down"]) {
      expect(kinds).toContain(`"${kind}"`);
    }
    expect(JSON.stringify(operationOf("/api/v1/reports/review", "GET")?.parameters)).toContain(
      '"month"',
    );
  });

  it("validates docs/executor.md's JSON examples: the plan, an event batch, the results", () => {
    const validators = {
      Plan: validatorOf("Plan"),
      EventBatch: validatorOf("EventBatch"),
      EventResults: validatorOf("EventResults"),
    };
    const blocks = jsonBlocksOf("docs/executor.md");
    const seen: string[] = [];
    for (const block of blocks) {
      const keys = Object.keys(block as object);
      const name = keys.includes("starts")
        ? "Plan"
        : keys.includes("results")
          ? "EventResults"
          : keys.includes("events") || keys.includes("kind")
            ? "EventBatch"
            : null;
      expect(name, `which schema for ${JSON.stringify(block).slice(0, 80)}`).not.toBeNull();
      const validate = validators[name!];
      expect(validate(block) ? [] : validate.errors).toEqual([]);
      seen.push(name!);
    }
    expect(new Set(seen)).toEqual(new Set(["Plan", "EventBatch", "EventResults"]));
  });

  it("refuses what the routes refuse: a plan without starts, an unknown event kind", () => {
    const plan = validatorOf("Plan");
    const batch = validatorOf("EventBatch");
    const [example] = jsonBlocksOf("docs/executor.md") as Record<string, unknown>[];
    expect(plan({ ...example, starts: undefined })).toBe(false);
    expect(batch({ events: [{ id: "e1", kind: "job.exploded", runId: "r" }] })).toBe(false);
    expect(batch({ id: "e1", kind: "node.down", node: 3 })).toBe(true);
  });

  it("is rendered in docs/api.md and docs/openapi.json, and they are current (npm run docs:api)", async () => {
    const { markdown, json } = await renderApiDocs();
    expect(readFileSync(path.join(ROOT, "docs", "api.md"), "utf8")).toBe(markdown);
    expect(readFileSync(path.join(ROOT, "docs", "openapi.json"), "utf8")).toBe(json);
  });
});
