// Malformed input against every route of the API (lib/api/routes.ts API_ROUTES): generated
// bodies, path parameters and query strings, sent to the route modules' own handlers with
// bearer tokens. Whatever comes in, nothing answers 5xx, every 4xx has the error shape, and a
// refused request changes no row of any table. A route without a generator fails the run.
// Cases come from fc.sample with a fixed seed per route, so the run is the same every time and
// a failing run lists every failing case of the route at once (nothing is shrunk).
import path from "node:path";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { createDraft } from "../data/budget-drafts";
import { setChildren } from "../data/budget-edits";
import { getChildrenState } from "../data/budget-state";
import { createPrismaClient } from "../data/client";
import { createClusterToken } from "../data/tokens";
import { ERROR_STATUS } from "../errors";
import { createTestBranch, type TestBranch } from "../testing/budget-branch";
import { createPersonalToken } from "../testing/factories";
import {
  badBoolean,
  badDate,
  badInt,
  badLine,
  badMonth,
  badText,
  badWeight,
  junkBodyText,
  junkParam,
  junkQuery,
  preview,
  toJsonText,
} from "../testing/malformed";
import { createTableSnapshotter, type TableSnapshot } from "../testing/table-snapshot";
import { API_ROUTES } from "./routes";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl, 2);
const LABEL = "zz-fuzz";
const RUNS_PER_ROUTE = 30;
const SEED = 20_261_204;
const APP_DIR = path.resolve(import.meta.dirname, "..", "..", "app");

type Method = "GET" | "POST" | "PUT" | "DELETE";
type TokenName = "admin" | "researcher" | "cluster";
type FieldPath = (string | number)[];

type FuzzCase = {
  /** What is wrong with the request, for the failure message. */
  label: string;
  token: TokenName;
  params?: Record<string, string>;
  query?: string;
  /** A JSON body (RawNumber values spliced in), or `bodyText` verbatim. */
  body?: unknown;
  bodyText?: string;
  /** "refusal": must be a 4xx; "any": any status but 5xx (e.g. a query a route ignores). */
  expect: "refusal" | "any";
  /** Statuses the refusal must have, when it matters. */
  statuses?: number[];
  /** The field a 422 must name (an issue path equal to it or below it). */
  field?: string;
};

type Fixture = {
  tokens: Record<TokenName, string>;
  programId: string;
  version: number;
  children: { id: string; name: string; weight: number }[];
  leafId: string;
  email: string;
  draftId: string;
  cluster: string;
};

type CaseMaker = (fixture: Fixture) => fc.Arbitrary<FuzzCase>;
type Handler = (
  request: Request,
  context: { params: Promise<Record<string, string>> },
) => Promise<Response>;

function withValue(body: unknown, field: FieldPath, value: unknown): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let at = copy;
  for (const key of field.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[field.at(-1)!] = value;
  return copy;
}

/** Who sends a case (default: the admin) and the path parameters it goes to. */
type Target = { tokens?: TokenName[]; params?: Record<string, string> };

/** One field of a valid body replaced by a wrong value: a 422 naming that field. */
function fieldCases(
  base: unknown,
  fields: [FieldPath, fc.Arbitrary<unknown>][],
  { tokens = ["admin"], params }: Target = {},
): fc.Arbitrary<FuzzCase> {
  return fc.oneof(
    ...fields.map(([field, bad]) =>
      fc.tuple(bad, fc.constantFrom(...tokens)).map(([value, token]): FuzzCase => ({
        label: `${field.join(".")} = ${preview(value)}`,
        token,
        params,
        body: withValue(base, field, value),
        expect: "refusal",
        statuses: [422],
        field: field.join("."),
      })),
    ),
  );
}

/** A body that is no JSON object, or not JSON at all: 400 or 422. */
function junkBodies({ tokens = ["admin"], params }: Target = {}): fc.Arbitrary<FuzzCase> {
  return fc.tuple(junkBodyText(), fc.constantFrom(...tokens)).map(([text, token]) => ({
    label: `body ${preview(text)}`,
    token,
    params,
    bodyText: text,
    expect: "refusal",
    statuses: [400, 422],
  }));
}

/** One path parameter replaced by junk (the others and the body valid): refused. */
function paramCases(
  valid: Record<string, string>,
  body?: unknown,
  tokens: TokenName[] = ["admin", "researcher"],
): fc.Arbitrary<FuzzCase> {
  return fc
    .tuple(fc.constantFrom(...Object.keys(valid)), junkParam(), fc.constantFrom(...tokens))
    .map(([name, junk, token]) => ({
      label: `:${name} = ${preview(junk)}`,
      token,
      params: { ...valid, [name]: junk },
      body,
      expect: "refusal",
      statuses: [403, 404, 422],
    }));
}

/** Junk in a query string the route does not read: anything but a 5xx. */
function queryCases(
  params?: Record<string, string>,
  tokens: TokenName[] = ["admin", "researcher", "cluster"],
): fc.Arbitrary<FuzzCase> {
  return fc.tuple(junkQuery(), fc.constantFrom(...tokens)).map(([query, token]) => ({
    label: `?${preview(query)}`,
    token,
    params,
    query,
    expect: "any",
  }));
}

/** The review's query with one parameter wrong: a 422 naming it. */
function reviewQueryCases(fixture: Fixture): fc.Arbitrary<FuzzCase> {
  const asQueryValue = (value: unknown) =>
    typeof value === "string" ? value : JSON.stringify(value);
  const cases: [string, Record<string, string>, fc.Arbitrary<unknown>][] = [
    ["month", {}, badMonth()],
    ["from", { to: "2026-10-31" }, badDate()],
    ["to", { from: "2026-10-01" }, badDate()],
    ["cluster", { month: "2026-10" }, badLine(fixture.cluster, 100)],
  ];
  return fc.oneof(
    ...cases.map(([name, rest, bad]) =>
      fc
        .tuple(
          // An empty field means "not given" (a form's blank input), so it is no error.
          bad.map(asQueryValue).filter((value) => value !== ""),
          fc.constantFrom<TokenName>("admin", "researcher"),
        )
        .map(([value, token]): FuzzCase => ({
          label: `?${name}=${preview(value)}`,
          token,
          query: new URLSearchParams({ ...rest, [name]: value }).toString(),
          expect: "refusal",
          statuses: [422],
          field: name,
        })),
    ),
    queryCases(),
  );
}

function childrenBody(fixture: Fixture) {
  return { version: fixture.version, reason: "fuzz reason", children: fixture.children };
}

const badChildren = fc.constantFrom<unknown>(
  null,
  "children",
  {},
  42,
  Array.from({ length: 1_001 }, (_, index) => ({ name: `c${index}`, weight: 1 })),
  Array.from({ length: 20_000 }, (_, index) => ({ name: `c${index}`, weight: 1 })),
);

function childrenCases(fixture: Fixture): fc.Arbitrary<FuzzCase> {
  const base = childrenBody(fixture);
  const params = { nodeId: fixture.programId };
  const [first] = fixture.children;
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fieldCases(
        base,
        [
          [["version"], badInt()],
          [["reason"], badText("fuzz reason", 500)],
          [["children"], badChildren],
          [["children", 0, "id"], badLine(first!.id, 64)],
          [["children", 1, "name"], badLine("solo", 64)],
          [["children", 0, "weight"], badWeight()],
        ],
        { params },
      ),
    },
    { weight: 1, arbitrary: junkBodies({ params }) },
    { weight: 2, arbitrary: paramCases(params, base) },
  );
}

const badKind = fc.constantFrom<unknown>("job.exploded", "", "node.healthy\u0000", null, 7);
const badDuration = fc.constantFrom<unknown>(
  "",
  "\u0000",
  "7d\u0000",
  "9999d",
  "1e400h",
  "-1h",
  "0m",
  null,
  42,
);

function eventCases(fixture: Fixture): fc.Arbitrary<FuzzCase> {
  const batch = {
    events: [
      { id: `${LABEL}-e1`, kind: "node.draining", node: 0, message: "fuzz" },
      { id: `${LABEL}-e2`, kind: "job.finished", runId: `${LABEL}-run`, message: "fuzz" },
    ],
  };
  const single = { id: `${LABEL}-e3`, kind: "job.started", runId: `${LABEL}-run` };
  const validEvent = batch.events[0];
  const target: Target = { tokens: ["admin", "cluster"], params: { name: fixture.cluster } };
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fieldCases(
        batch,
        [
          [["events", 0, "id"], badLine(`${LABEL}-e1`, 200)],
          [["events", 0, "node"], badInt()],
          [["events", 0, "message"], badText("fuzz", 2000)],
          [["events", 0, "kind"], badKind],
          [["events", 1, "runId"], badLine(`${LABEL}-run`, 200)],
          [["events", 1, "message"], badText("fuzz", 2000)],
          [
            ["events"],
            fc.constantFrom<unknown>(
              [],
              null,
              {},
              Array.from({ length: 501 }, (_, index) => ({ ...validEvent, id: `e${index}` })),
            ),
          ],
        ],
        target,
      ),
    },
    {
      weight: 2,
      arbitrary: fieldCases(
        single,
        [
          [["id"], badLine(`${LABEL}-e3`, 200)],
          [["runId"], badLine(`${LABEL}-run`, 200)],
          [["message"], badText("fuzz", 2000)],
        ],
        target,
      ),
    },
    { weight: 1, arbitrary: junkBodies(target) },
    { weight: 2, arbitrary: paramCases(target.params!, batch, target.tokens) },
  );
}

function personCases(fixture: Fixture): fc.Arbitrary<FuzzCase> {
  const base = { email: fixture.email };
  const params = { nodeId: fixture.leafId };
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fieldCases(base, [[["email"], badLine(fixture.email, 254)]], { params }),
    },
    { weight: 1, arbitrary: junkBodies({ params }) },
    { weight: 2, arbitrary: paramCases(params, base) },
  );
}

function whatIfCases(fixture: Fixture): fc.Arbitrary<FuzzCase> {
  const base = { from: "2026-10-01", to: "2026-11-01", clusters: ["b200"], hasControl: false };
  const params = { id: fixture.draftId };
  const badClusters = fc.constantFrom<unknown>(
    null,
    "h100",
    [],
    Array.from({ length: 10_000 }, () => "b200"),
  );
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fieldCases(
        base,
        [
          [["from"], badDate()],
          [["to"], badDate()],
          [["clusters"], badClusters],
          [["clusters", 0], badLine("b200", 64)],
          [["hasControl"], badBoolean()],
        ],
        { params },
      ),
    },
    { weight: 1, arbitrary: junkBodies({ params }) },
    { weight: 2, arbitrary: paramCases(params, base) },
  );
}

function jobCases(fixture: Fixture): fc.Arbitrary<FuzzCase> {
  const base = {
    cluster: "b300",
    budgetId: fixture.leafId,
    name: "fuzz job",
    gpus: 8,
    minRuntimeSec: 3600,
    isResumable: true,
    priority: "normal",
  };
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fieldCases(
        base,
        [
          [["cluster"], badLine("b300", 100)],
          [["budgetId"], badLine(fixture.leafId, 64)],
          [["name"], badLine("fuzz job", 120)],
          [["gpus"], badInt()],
          [["minRuntimeSec"], badInt()],
          [["isResumable"], badBoolean()],
          [["priority"], fc.constantFrom<unknown>("urgent", "", "normal\u0000", null, 1)],
          [["workSec"], fc.constantFrom<unknown>(60, 2 ** 31)],
        ],
        { tokens: ["researcher"] },
      ),
    },
    { weight: 1, arbitrary: junkBodies({ tokens: ["researcher"] }) },
  );
}

const TINY_SCENARIO = {
  clusters: [{ name: "c1", gpuType: "H100", nodes: 1, gpusPerNode: 4 }],
  tree: {
    name: "lab",
    children: [
      { name: "a", weight: 3 },
      { name: "b", weight: 1 },
    ],
  },
  jobs: [{ id: "j1", budget: "a", cluster: "c1", submit: 0, gpus: 2, work: "1h" }],
};

function simulationCases(): fc.Arbitrary<FuzzCase> {
  const base = { source: "lab", name: "fuzz sim", options: { days: 1 } };
  const upload = { source: "upload", scenario: TINY_SCENARIO };
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fieldCases(base, [
        [["name"], badLine("fuzz sim", 120)],
        [["source"], fc.constantFrom<unknown>("moon", "", "lab\u0000", null)],
        [["options"], fc.constantFrom<unknown>(null, "x", [], 42)],
        [["options", "days"], badInt(120)],
        [["options", "seed"], badInt(4_294_967_295)],
        [["options", "clusterGpus"], badInt(100_000)],
        [["options", "lookback"], badDuration],
        [["options", "maxMinRuntime"], badDuration],
      ]),
    },
    {
      weight: 3,
      arbitrary: fieldCases(upload, [
        [["scenario", "jobs", 0, "id"], badLine("j1", 200)],
        [["scenario", "jobs", 0, "gpus"], badInt()],
        [["scenario", "tree", "children", 0, "name"], badLine("a", 64)],
        [["scenario", "tree", "children", 0, "weight"], badWeight()],
        [["scenario", "clusters", 0, "name"], badLine("c1", 64)],
        [["scenario", "clusters", 0, "nodes"], badInt()],
      ]).map((fuzzCase) => ({ ...fuzzCase, field: undefined })),
    },
    { weight: 1, arbitrary: junkBodies() },
  );
}

const idRoute = (name: string) => () => paramCases({ [name]: "cm4fuzzunknown000000000000" });

/** Route pattern -> method -> the malformed requests it gets. Every route must be here. */
const CASES: Record<string, Partial<Record<Method, CaseMaker>>> = {
  "/api/v1/health": { GET: () => queryCases() },
  "/api/v1/budgets": { GET: () => queryCases() },
  "/api/v1/budgets/:nodeId/children": { PUT: childrenCases },
  "/api/v1/budgets/:nodeId/drafts": {
    GET: (fixture) =>
      fc.oneof(
        paramCases({ nodeId: fixture.programId }),
        queryCases({ nodeId: fixture.programId }),
      ),
    POST: childrenCases,
  },
  "/api/v1/budgets/:nodeId/history": { GET: idRoute("nodeId") },
  "/api/v1/budgets/:nodeId/leads": { POST: personCases, DELETE: personCases },
  "/api/v1/budgets/:nodeId/members": { POST: personCases, DELETE: personCases },
  "/api/v1/clusters": { GET: () => queryCases() },
  "/api/v1/clusters/:name/events": { POST: eventCases },
  "/api/v1/clusters/:name/plan": {
    GET: (fixture) =>
      paramCases({ name: fixture.cluster }, undefined, ["admin", "researcher", "cluster"]),
  },
  "/api/v1/clusters/:name/queue": { GET: idRoute("name") },
  "/api/v1/drafts/:id": { GET: idRoute("id") },
  "/api/v1/drafts/:id/adopt": {
    POST: (fixture) => {
      const params = { id: fixture.draftId };
      return fc.oneof(
        fieldCases({ reason: "fuzz adopt" }, [[["reason"], badText("fuzz adopt", 500)]], {
          params,
        }),
        junkBodies({ params }),
        paramCases(params, { reason: "fuzz adopt" }),
      );
    },
  },
  "/api/v1/drafts/:id/what-ifs": {
    GET: (fixture) => paramCases({ id: fixture.draftId }),
    POST: whatIfCases,
  },
  "/api/v1/drafts/:id/what-ifs/:runId": {
    GET: (fixture) => paramCases({ id: fixture.draftId, runId: "cm4fuzzunknown000000000000" }),
  },
  "/api/v1/jobs": { GET: () => queryCases(), POST: jobCases },
  "/api/v1/jobs/:id": { GET: idRoute("id") },
  "/api/v1/jobs/:id/cancel": { POST: idRoute("id") },
  "/api/v1/reports/review": { GET: reviewQueryCases },
  "/api/v1/reports/review.csv": { GET: reviewQueryCases },
  "/api/v1/simulations": { GET: () => queryCases(), POST: simulationCases },
  "/api/v1/simulations/:id": { GET: idRoute("id") },
  "/api/v1/simulations/:id/report": { GET: idRoute("id") },
  "/api/v1/simulations/:id/timeline": { GET: idRoute("id") },
};

async function loadHandler(pattern: string, method: Method): Promise<Handler> {
  const dir = pattern.replace(/^\/api\/v1/, "api/v1").replace(/:(\w+)/g, "[$1]");
  const routeModule = (await import(path.join(APP_DIR, dir, "route.ts"))) as Record<
    string,
    unknown
  >;
  const handler = routeModule[method];
  if (typeof handler !== "function") throw new Error(`${pattern} exports no ${method}`);
  return handler as Handler;
}

function encodeParam(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return "malformed"; // a lone surrogate: the handler gets the raw value through params
  }
}

async function send(
  handler: Handler,
  pattern: string,
  method: Method,
  fuzzCase: FuzzCase,
  fixture: Fixture,
): Promise<Response> {
  const params = fuzzCase.params ?? {};
  const pathname = pattern.replace(/:(\w+)/g, (_, name: string) => encodeParam(params[name]!));
  const url = `http://localhost${pathname}${fuzzCase.query === undefined ? "" : `?${fuzzCase.query}`}`;
  const bodyText =
    fuzzCase.bodyText ?? (fuzzCase.body === undefined ? undefined : toJsonText(fuzzCase.body));
  const headers: Record<string, string> = {
    authorization: `Bearer ${fixture.tokens[fuzzCase.token]}`,
  };
  if (bodyText !== undefined) headers["content-type"] = "application/json";
  const request = new Request(url, {
    method,
    headers,
    body: method === "GET" ? undefined : bodyText,
  });
  return handler(request, { params: Promise.resolve(params) });
}

/** What is wrong with an answer to a malformed request, or null when nothing is. */
async function checkAnswer(response: Response, fuzzCase: FuzzCase): Promise<string | null> {
  const { status } = response;
  const text = await response.text();
  if (status >= 500) return `answered ${status}: ${text.slice(0, 300)}`;
  if (status < 400) {
    return fuzzCase.expect === "refusal" ? `accepted with ${status}: ${text.slice(0, 200)}` : null;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return `answered ${status} without a JSON body: ${text.slice(0, 200)}`;
  }
  const error = (body as { error?: Record<string, unknown> } | null)?.error;
  const code = error?.code;
  if (
    typeof code !== "string" ||
    !(code in ERROR_STATUS) ||
    ERROR_STATUS[code as keyof typeof ERROR_STATUS] !== status ||
    typeof error?.message !== "string" ||
    error.message === "" ||
    Object.keys(error).some((key) => !["code", "message", "issues", "details"].includes(key))
  ) {
    return `answered ${status} without the error shape: ${text.slice(0, 200)}`;
  }
  const issues = error.issues as { path: unknown; message: unknown }[] | undefined;
  if (
    issues !== undefined &&
    (!Array.isArray(issues) ||
      issues.some(
        (issue) =>
          typeof issue.path !== "string" ||
          typeof issue.message !== "string" ||
          Object.keys(issue).length !== 2,
      ))
  ) {
    return `answered ${status} with malformed issues: ${text.slice(0, 200)}`;
  }
  if (fuzzCase.statuses && !fuzzCase.statuses.includes(status)) {
    return `answered ${status}, not ${fuzzCase.statuses.join(" or ")}: ${text.slice(0, 200)}`;
  }
  const field = fuzzCase.field;
  if (field !== undefined && !issues?.some((issue) => namesField(issue, field))) {
    return `answered ${status} without naming ${field}: ${text.slice(0, 200)}`;
  }
  return null;
}

/**
 * True when an issue is about `field`: its path is the field or below it, or (an unknown key
 * of a strict object) its path is the parent and its message quotes the key.
 */
function namesField(issue: { path: unknown; message: unknown }, field: string): boolean {
  const issuePath = String(issue.path);
  if (issuePath === field || issuePath.startsWith(`${field}.`)) return true;
  const parent = field.includes(".") ? field.slice(0, field.lastIndexOf(".")) : "(body)";
  const key = field.slice(field.lastIndexOf(".") + 1);
  return issuePath === parent && String(issue.message).includes(key);
}

function changedTables(before: TableSnapshot, after: TableSnapshot): string[] {
  return Object.keys({ ...before, ...after }).filter((name) => before[name] !== after[name]);
}

function seedOf(text: string): number {
  let hash = SEED;
  for (const char of text) hash = (Math.imul(hash, 31) + char.charCodeAt(0)) | 0;
  return hash;
}

let branch: TestBranch;
let fixture: Fixture;
let snapshot: () => Promise<TableSnapshot>;
const startedAt = new Date();

beforeAll(async () => {
  // A what-if or simulation wrongly accepted must not start a worker that writes rows while
  // later cases compare snapshots: the worker would be `node /dev/null`, which does nothing.
  process.env.ALLOT_SIM_WORKER_BUNDLE = "/dev/null";
  await seedDemoLab(databaseUrl, { withHistory: false });
  branch = await createTestBranch(db, LABEL);
  const programId = branch.ids[LABEL]!;
  const state = await getChildrenState(db, programId);
  const draft = await createDraft(branch.users.admin, programId, {
    version: state.version,
    reason: "fuzz draft",
    children: state.children,
  });
  // b200: the other database tests queue and drain on h100 and b300.
  const cluster = "b200";
  fixture = {
    tokens: {
      admin: await createPersonalToken(db, branch.users.admin.id, `${LABEL} admin`),
      researcher: await createPersonalToken(db, branch.users.researcher.id, `${LABEL} researcher`),
      cluster: (await createClusterToken(cluster, `${LABEL} executor`, branch.users.admin.id))
        .token,
    },
    programId,
    version: state.version,
    children: state.children,
    leafId: branch.ids[`${LABEL}/proj/alice`]!,
    email: branch.users.outsider.email,
    draftId: draft.id,
    cluster,
  };
  snapshot = await createTableSnapshotter(db);
});

afterAll(async () => {
  await db.simulation.deleteMany({ where: { createdAt: { gte: startedAt } } });
  await db.budgetDraft.deleteMany({ where: { nodeId: { in: Object.values(branch.ids) } } });
  await db.apiToken.deleteMany({ where: { name: { startsWith: LABEL } } });
  const root = await getChildrenState(db, branch.rootId);
  await setChildren(branch.users.admin, branch.rootId, {
    version: root.version,
    reason: "test clean-up",
    children: root.children.filter((child) => !child.name.startsWith(LABEL)),
  });
  await db.$disconnect();
});

const ROUTE_METHODS = Object.entries(API_ROUTES).flatMap(([pattern, methods]) =>
  methods.map((method) => [pattern, method as Method] as const),
);

describe("malformed input on every API route", () => {
  it("has a generator for every route and method of the route table", () => {
    const missing = ROUTE_METHODS.filter(([pattern, method]) => !CASES[pattern]?.[method]);
    expect(missing.map(([pattern, method]) => `${method} ${pattern}`)).toEqual([]);
  });

  it.each(ROUTE_METHODS)(
    "%s %s: no 5xx, the error shape on every 4xx, no row changed by a refusal",
    async (pattern, method) => {
      const maker = CASES[pattern]?.[method];
      if (!maker) throw new Error(`No generator for ${method} ${pattern}: add one to CASES.`);
      const handler = await loadHandler(pattern, method);
      const cases = fc.sample(maker(fixture), {
        numRuns: RUNS_PER_ROUTE,
        seed: seedOf(`${method} ${pattern}`),
      });
      const failures: string[] = [];
      let before = await snapshot();
      for (const fuzzCase of cases) {
        const response = await send(handler, pattern, method, fuzzCase, fixture).catch(
          (error: unknown) => error,
        );
        const problem =
          response instanceof Response
            ? await checkAnswer(response, fuzzCase)
            : `threw ${String(response)}`;
        const after = await snapshot();
        const isRefused = response instanceof Response && response.status >= 400;
        const changed = isRefused ? changedTables(before, after) : [];
        before = after;
        const where = `${fuzzCase.label} (${fuzzCase.token})`;
        if (problem) failures.push(`${where}: ${problem}`);
        if (changed.length > 0)
          failures.push(`${where}: refused, but changed ${changed.join(", ")}`);
      }
      expect(failures).toEqual([]);
    },
    120_000,
  );
});
