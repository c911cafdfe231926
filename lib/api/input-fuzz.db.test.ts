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
import { createPrismaClient } from "../data/db/client";
import { createClusterToken } from "../data/tokens";
import { ERROR_STATUS } from "../errors";
import { createTestBranch, type TestBranch } from "../testing/budget-branch";
import { createPersonalToken } from "../demo/seed-org";
import { FUZZ_LABEL, type Fixture, type FuzzCase, type Method } from "../testing/fuzz-requests";
import { FUZZ_ROUTES } from "../testing/fuzz-routes";
import { toJsonText } from "../testing/malformed";
import { createTableSnapshotter, type TableSnapshot } from "../testing/table-snapshot";
import { API_ROUTES } from "./routes";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl, 2);
const RUNS_PER_ROUTE = 30;
const SEED = 20_261_204;
const APP_DIR = path.resolve(import.meta.dirname, "..", "..", "app");

type Handler = (
  request: Request,
  context: { params: Promise<Record<string, string>> },
) => Promise<Response>;

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
  branch = await createTestBranch(db, FUZZ_LABEL);
  const programId = branch.ids[FUZZ_LABEL]!;
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
      admin: await createPersonalToken(db, branch.users.admin.id, `${FUZZ_LABEL} admin`),
      researcher: await createPersonalToken(
        db,
        branch.users.researcher.id,
        `${FUZZ_LABEL} researcher`,
      ),
      cluster: (await createClusterToken(cluster, `${FUZZ_LABEL} executor`, branch.users.admin.id))
        .token,
    },
    programId,
    version: state.version,
    children: state.children,
    leafId: branch.ids[`${FUZZ_LABEL}/proj/alice`]!,
    email: branch.users.outsider.email,
    draftId: draft.id,
    cluster,
  };
  snapshot = await createTableSnapshotter(db);
});

afterAll(async () => {
  await db.simulation.deleteMany({ where: { createdAt: { gte: startedAt } } });
  await db.budgetDraft.deleteMany({ where: { nodeId: { in: Object.values(branch.ids) } } });
  await db.apiToken.deleteMany({ where: { name: { startsWith: FUZZ_LABEL } } });
  const root = await getChildrenState(db, branch.rootId);
  await setChildren(branch.users.admin, branch.rootId, {
    version: root.version,
    reason: "test clean-up",
    children: root.children.filter((child) => !child.name.startsWith(FUZZ_LABEL)),
  });
  await db.$disconnect();
});

const ROUTE_METHODS = Object.entries(API_ROUTES).flatMap(([pattern, methods]) =>
  methods.map((method) => [pattern, method as Method] as const),
);

describe("malformed input on every API route", () => {
  it("has a generator for every route and method of the route table", () => {
    const missing = ROUTE_METHODS.filter(([pattern, method]) => !FUZZ_ROUTES[pattern]?.[method]);
    expect(missing.map(([pattern, method]) => `${method} ${pattern}`)).toEqual([]);
  });

  it.each(ROUTE_METHODS)(
    "%s %s: no 5xx, the error shape on every 4xx, no row changed by a refusal",
    async (pattern, method) => {
      const maker = FUZZ_ROUTES[pattern]?.[method];
      if (!maker)
        throw new Error(
          `No generator for ${method} ${pattern}: add one to FUZZ_ROUTES (lib/testing/fuzz-routes.ts).`,
        );
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
