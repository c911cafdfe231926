// The API fuzz test's table: route pattern -> method -> the malformed requests it gets, built
// from a fixture of real ids and tokens (lib/api/input-fuzz.db.test.ts). Every route of
// API_ROUTES must have an entry; the test fails for one that has none.
import fc from "fast-check";
import {
  FUZZ_LABEL,
  fieldCases,
  junkBodies,
  paramCases,
  queryCases,
  reviewQueryCases,
  type CaseMaker,
  type Fixture,
  type FuzzCase,
  type Method,
  type Target,
} from "./fuzz-requests";
import { badBoolean, badDate, badInt, badLine, badText, badWeight } from "./malformed";

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
      { id: `${FUZZ_LABEL}-e1`, kind: "node.draining", node: 0, message: "fuzz" },
      { id: `${FUZZ_LABEL}-e2`, kind: "job.finished", runId: `${FUZZ_LABEL}-run`, message: "fuzz" },
      {
        id: `${FUZZ_LABEL}-e4`,
        kind: "job.submitted",
        externalId: "4242",
        account: "fuzz.account",
        user: "fuzz",
        name: "fuzz job",
        gpus: 1,
        minRuntimeSec: null,
        isResumable: true,
      },
      { id: `${FUZZ_LABEL}-e5`, kind: "job.cancelled", jobId: `${FUZZ_LABEL}-job` },
    ],
  };
  const single = { id: `${FUZZ_LABEL}-e3`, kind: "job.started", runId: `${FUZZ_LABEL}-run` };
  const validEvent = batch.events[0];
  const target: Target = { tokens: ["admin", "cluster"], params: { name: fixture.cluster } };
  return fc.oneof(
    {
      weight: 6,
      arbitrary: fieldCases(
        batch,
        [
          [["events", 0, "id"], badLine(`${FUZZ_LABEL}-e1`, 200)],
          [["events", 0, "node"], badInt()],
          [["events", 0, "message"], badText("fuzz", 2000)],
          [["events", 0, "kind"], badKind],
          [["events", 1, "runId"], badLine(`${FUZZ_LABEL}-run`, 200)],
          [["events", 1, "message"], badText("fuzz", 2000)],
          [["events", 2, "externalId"], badLine("4242", 200)],
          [["events", 2, "account"], badLine("fuzz.account", 200)],
          [["events", 2, "user"], badLine("fuzz", 200)],
          [["events", 2, "name"], badLine("fuzz job", 120)],
          [["events", 2, "gpus"], badInt()],
          [["events", 2, "minRuntimeSec"], badInt().filter((value) => value !== null)],
          [["events", 2, "isResumable"], badBoolean()],
          [["events", 3, "jobId"], badLine(`${FUZZ_LABEL}-job`, 200)],
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
          [["id"], badLine(`${FUZZ_LABEL}-e3`, 200)],
          [["runId"], badLine(`${FUZZ_LABEL}-run`, 200)],
          [["message"], badText("fuzz", 2000)],
        ],
        target,
      ),
    },
    { weight: 1, arbitrary: junkBodies(target) },
    { weight: 2, arbitrary: paramCases(target.params!, batch, target.tokens) },
  );
}

/** Registration of a name the demo executor owns: even a valid field gets 409, never a write. */
function registerCases(fixture: Fixture): fc.Arbitrary<FuzzCase> {
  const base = {
    name: fixture.cluster,
    gpuType: "H100",
    executor: "slurm",
    nodes: [{ hostname: "n1", gpus: 8 }],
  };
  const target: Target = { tokens: ["admin"] };
  return fc.oneof(
    {
      weight: 4,
      arbitrary: fieldCases(
        base,
        [
          [["name"], badLine(fixture.cluster, 63)],
          [["gpuType"], badLine("H100", 40)],
          [["executor"], badKind],
          [["nodes", 0, "hostname"], badLine("n1", 200)],
          [["nodes", 0, "gpus"], badInt()],
          [["maxMinRuntimeSec"], badInt()],
          [["tokenName"], badLine("fuzz token", 100)],
        ],
        target,
      ),
    },
    { weight: 1, arbitrary: junkBodies(target) },
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

/**
 * Tokens are made from the browser session only (e2e/tokens.spec.ts checks its 422s): a token
 * is refused with 403 before its body is read, whatever the body.
 */
function tokenCases(): fc.Arbitrary<FuzzCase> {
  const base = { name: "fuzz token", expiresInDays: 30 };
  const target: Target = { tokens: ["admin", "researcher"] };
  const refusedByToken = (fuzzCase: FuzzCase): FuzzCase => ({
    ...fuzzCase,
    expect: "refusal",
    statuses: [403],
    field: undefined,
  });
  return fc
    .oneof(
      {
        weight: 4,
        arbitrary: fieldCases(
          base,
          [
            [["name"], badLine("fuzz token", 80)],
            [["expiresInDays"], badInt(3650).filter((value) => value !== null)],
          ],
          target,
        ),
      },
      { weight: 1, arbitrary: junkBodies(target) },
    )
    .map(refusedByToken);
}

const idRoute = (name: string) => () => paramCases({ [name]: "cm4fuzzunknown000000000000" });

/** Route pattern -> method -> the malformed requests it gets. Every route must be here. */
export const FUZZ_ROUTES: Record<string, Partial<Record<Method, CaseMaker>>> = {
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
  "/api/v1/clusters": { GET: () => queryCases(), POST: registerCases },
  "/api/v1/clusters/:name/accounts": {
    GET: (fixture) =>
      paramCases({ name: fixture.cluster }, undefined, ["admin", "researcher", "cluster"]),
  },
  "/api/v1/clusters/:name/events": { POST: eventCases },
  "/api/v1/clusters/:name/nodes/:node/health": {
    POST: (fixture) => {
      const params = { name: fixture.cluster, node: "0" };
      const body = { health: "draining", reason: "fuzz drain" };
      return fc.oneof(
        fieldCases(
          body,
          [
            [["health"], badLine("draining", 20)],
            [["reason"], badText("fuzz drain", 500)],
          ],
          { params },
        ),
        junkBodies({ params }),
        paramCases(params, body),
        paramCases({ name: fixture.cluster, node: "-1" }, body),
      );
    },
  },
  "/api/v1/clusters/:name/plan": {
    GET: (fixture) =>
      paramCases({ name: fixture.cluster }, undefined, ["admin", "researcher", "cluster"]),
  },
  "/api/v1/clusters/:name/nodes": { GET: idRoute("name") },
  "/api/v1/clusters/:name/jobs/:externalId": {
    GET: (fixture) => paramCases({ name: fixture.cluster, externalId: "4242" }),
  },
  "/api/v1/clusters/:name/queue": { GET: idRoute("name") },
  "/api/v1/drafts/:id": { GET: idRoute("id"), DELETE: idRoute("id") },
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
  "/api/v1/me": { GET: () => queryCases() },
  "/api/v1/openapi.json": { GET: () => queryCases() },
  "/api/v1/reports/review": { GET: reviewQueryCases },
  "/api/v1/reports/review.csv": { GET: reviewQueryCases },
  "/api/v1/simulations": { GET: () => queryCases(), POST: simulationCases },
  "/api/v1/simulations/:id": { GET: idRoute("id") },
  "/api/v1/simulations/:id/report": { GET: idRoute("id") },
  "/api/v1/simulations/:id/timeline": { GET: idRoute("id") },
  "/api/v1/tokens": { GET: () => queryCases(), POST: tokenCases },
  "/api/v1/tokens/:id": { DELETE: idRoute("id") },
};
