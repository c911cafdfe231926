// The API's OpenAPI 3.1 description, built from the zod schemas the route handlers parse
// (zod-openapi renders them through zod 4's own JSON Schema output). One entry per route and
// method of API_ROUTES (a test holds them equal); error responses follow from what an
// operation reads, so every refusal a route can give is listed with the one error shape.
import { z } from "zod";
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiResponseObject,
} from "zod-openapi";
import { setChildrenSchema, personSchema } from "../validation/budgets";
import { registerClusterSchema } from "../validation/clusters";
import { batchSchema, executorEventSchema } from "../validation/executor";
import { jobListQuerySchema } from "../validation/job-list";
import { submitJobSchema } from "../validation/jobs";
import { pathParamSchema } from "../validation/params";
import { reviewQuerySchema } from "../validation/review";
import { createSimulationSchema } from "../validation/simulations";
import { createPersonalTokenSchema, tokenListQuerySchema } from "../validation/tokens";
import { cancelJobSchema, nodeHealthSchema } from "../validation/oversight";
import { adoptDraftSchema, createDraftSchema, startWhatIfSchema } from "../validation/what-if";
import {
  errorBodySchema,
  eventResultsSchema,
  healthSchema,
  meSchema,
  newPersonalTokenSchema,
  personalTokenSchema,
  planSchema,
} from "./openapi-schemas";
import { API_ROUTES } from "./routes";

export const API_VERSION = "1.0.0";

type Method = "GET" | "POST" | "PUT" | "DELETE";

/** Who may call: nobody in particular, a person (session or personal token), an executor. */
type Caller = "anyone" | "person" | "executor";

type Operation = {
  summary: string;
  caller: Caller;
  body?: z.ZodType;
  query?: z.ZodObject | z.ZodType;
  status: number;
  description: string;
  schema?: z.ZodType;
  contentType?: string;
  /** A write that may meet a newer state (a version, a name taken): 409. */
  hasConflict?: boolean;
  /** Starts work in the background, at most a few at once per person: 429. */
  hasQuota?: boolean;
  /** False for the one route that never reads the database (no 503). */
  usesDatabase?: boolean;
};

const person = (summary: string, rest: Omit<Operation, "summary" | "caller">): Operation => ({
  summary,
  caller: "person",
  ...rest,
});
const ok = (description: string, schema?: z.ZodType) => ({ status: 200, description, schema });

const eventsBody = z
  .union([batchSchema, executorEventSchema.meta({ id: "ExecutorEvent" })])
  .meta({ id: "EventBatch", description: "One event, or up to 500 as `{ events: [...] }`." });

/** Route pattern (as in API_ROUTES) -> method -> what it takes and answers. */
export const OPERATIONS: Record<string, Partial<Record<Method, Operation>>> = {
  "/api/v1/health": {
    GET: {
      summary: "Readiness: the database reachable (503 when not), and whether this replica leads",
      caller: "anyone",
      ...ok("Up.", healthSchema),
    },
  },
  "/api/v1/openapi.json": {
    GET: {
      summary: "This document",
      caller: "anyone",
      ...ok("The OpenAPI 3.1 document."),
      usesDatabase: false,
    },
  },
  "/api/v1/budgets": {
    GET: person("The budget tree: weights, fractions, shares, leads, versions", ok("The tree.")),
  },
  "/api/v1/budgets/:nodeId/children": {
    PUT: person("Set the children of a node (weights, names, additions, removals)", {
      body: setChildrenSchema,
      ...ok(
        "The node's new children and version; `changed` is false, and nothing is written, when the children were sent as they are.",
      ),
      hasConflict: true,
    }),
  },
  "/api/v1/budgets/:nodeId/drafts": {
    GET: person("The node's drafts (for those who may edit it)", ok("The drafts.")),
    POST: person("Keep a proposed split of the node's children", {
      body: createDraftSchema,
      status: 201,
      description: "The draft; Location names it.",
      hasConflict: true,
    }),
  },
  "/api/v1/budgets/:nodeId/history": {
    GET: person("The node's changes and weights over time", ok("The history.")),
  },
  "/api/v1/budgets/:nodeId/leads": {
    POST: person("Add a lead of the node, by email", {
      body: personSchema,
      status: 201,
      description: "Added (200 when already a lead).",
      hasConflict: true,
    }),
    DELETE: person("Remove a lead of the node, by email", {
      body: personSchema,
      ...ok("Removed, or was not a lead."),
      hasConflict: true,
    }),
  },
  "/api/v1/budgets/:nodeId/members": {
    POST: person("Add a member of a leaf budget, by email", {
      body: personSchema,
      status: 201,
      description: "Added (200 when already a member).",
      hasConflict: true,
    }),
    DELETE: person("Remove a member of a leaf budget, by email", {
      body: personSchema,
      ...ok("Removed, or was not a member."),
      hasConflict: true,
    }),
  },
  "/api/v1/clusters": {
    GET: person("Every cluster's GPUs: allocated, unallocated, idle, pending", ok("The clusters.")),
    POST: person("Register a cluster an outside executor drives, or update its nodes (admins)", {
      body: registerClusterSchema,
      status: 201,
      description: "Registered (200 when it was known); a new token with `tokenName`.",
      hasConflict: true,
    }),
  },
  "/api/v1/clusters/:name/accounts": {
    GET: {
      summary: "The budget tree as SLURM accounts (allot slurm sync-accounts; docs/slurm.md)",
      caller: "executor",
      ...ok("The accounts."),
    },
  },
  "/api/v1/clusters/:name/events": {
    POST: {
      summary: "Executor events, idempotent by id, all or nothing; then one tick",
      caller: "executor",
      body: eventsBody,
      ...ok("Each event's outcome.", eventResultsSchema),
      hasConflict: true,
    },
  },
  "/api/v1/clusters/:name/nodes": {
    GET: person(
      "Every node's health (who set it, when, why), the runs on it, the nodes' history and the drains that finished by themselves",
      ok("The nodes."),
    ),
  },
  "/api/v1/clusters/:name/nodes/:node/health": {
    POST: person(
      "Drain, down or restore a node (admins), named by the executor's name (gpu04) or by index (a name that reads as a number is a name first); draining needs a reason",
      {
        body: nodeHealthSchema,
        ...ok("The node's new health, or a note when it already was in that state."),
      },
    ),
  },
  "/api/v1/clusters/:name/plan": {
    GET: {
      summary: "What the executor should start and stop, with reasons",
      caller: "executor",
      ...ok("The plan.", planSchema),
      // A SLURM bridge (X-Allot-Executor: slurm) aimed at a cluster another executor drives.
      hasConflict: true,
    },
  },
  "/api/v1/clusters/:name/jobs/:externalId": {
    GET: person(
      "A job by its executor's id on the cluster (SLURM's job id), as GET /api/v1/jobs/{id} gives it",
      ok("The job."),
    ),
  },
  "/api/v1/clusters/:name/queue": {
    GET: person(
      "The live ranked queue: every job's reason, plain summary and start estimate",
      ok(
        "The queue. Each pending row has `expectedStartAt` (ISO 8601 or null: the time by which it should start, when the pass keeps nodes for it) and `startNote` (or null: what would have to change); pending and running rows have `externalId`, SLURM's job id of a job submitted with sbatch (else null).",
      ),
    ),
  },
  "/api/v1/drafts/:id": {
    GET: person("A draft, the split in force and its what-ifs", ok("The draft.")),
    DELETE: person("Discard a draft that was not adopted, with its what-ifs", {
      ...ok("The discarded draft's id and node."),
      hasConflict: true,
    }),
  },
  "/api/v1/drafts/:id/adopt": {
    POST: person("Put the draft's split in force (a normal edit, with history)", {
      body: adoptDraftSchema,
      ...ok("The adopted draft."),
      hasConflict: true,
    }),
  },
  "/api/v1/drafts/:id/what-ifs": {
    GET: person("The draft's what-ifs with progress and results", ok("The what-ifs.")),
    POST: person("Replay a period's demand under the draft (in the background)", {
      body: startWhatIfSchema,
      status: 202,
      description: "Started; Location names the what-if.",
      hasConflict: true,
      hasQuota: true,
    }),
  },
  "/api/v1/drafts/:id/what-ifs/:runId": {
    GET: person("One what-if: progress, then the side-by-side result", ok("The what-if.")),
  },
  "/api/v1/jobs": {
    GET: person(
      "The jobs the caller sees (own; a lead's branch; an admin's all), filtered and paged",
      {
        query: jobListQuerySchema,
        ...ok(
          "One page of jobs with `total`, `page`, `pageCount`, `notes` and `nowSec` (the app clock the page was read at, seconds).",
        ),
      },
    ),
    POST: person("Submit a job charged to a leaf budget the caller belongs to", {
      body: submitJobSchema.omit({ workSec: true }),
      status: 201,
      description: "The job with its place in the queue.",
      hasConflict: true,
    }),
  },
  "/api/v1/jobs/:id": {
    GET: person("A job with its runs and its newest 500 decisions", ok("The job.")),
  },
  "/api/v1/jobs/:id/cancel": {
    POST: person("Cancel a pending or running job (its owner or an admin), with a reason", {
      body: cancelJobSchema,
      ...ok("The cancelled job."),
      hasConflict: true,
    }),
  },
  "/api/v1/me": {
    GET: person("The caller: name, email, role and the budgets they may charge", {
      ...ok("The caller.", meSchema),
    }),
  },
  "/api/v1/reports/review": {
    GET: person("The budget review: entitled and received GPU-hours per branch", {
      query: reviewQuerySchema,
      ...ok("The review."),
    }),
  },
  "/api/v1/reports/review.csv": {
    GET: person("The budget review's table as CSV", {
      query: reviewQuerySchema,
      ...ok("The table."),
      contentType: "text/csv",
    }),
  },
  "/api/v1/simulations": {
    GET: person("Past simulations with their inputs and headline numbers", ok("The simulations.")),
    POST: person("Start a simulation: a built-in scenario or an uploaded one", {
      body: createSimulationSchema,
      status: 202,
      description: "Started; Location names it.",
      hasQuota: true,
    }),
  },
  "/api/v1/simulations/:id": {
    GET: person("A simulation's status, progress and summary", ok("The simulation.")),
  },
  "/api/v1/simulations/:id/report": {
    GET: person("A simulation's report of both schedulers", ok("The report.")),
  },
  "/api/v1/simulations/:id/timeline": {
    GET: person("Per-GPU run segments of both schedulers", ok("The timeline.")),
  },
  "/api/v1/tokens": {
    GET: person(
      "The caller's own personal tokens; with scope=others (admins) everyone else's in force, each with its owner",
      {
        query: tokenListQuerySchema,
        ...ok("The tokens.", z.object({ tokens: z.array(personalTokenSchema) })),
      },
    ),
    POST: person("Create a personal token of the signed-in caller (browser session only)", {
      body: createPersonalTokenSchema,
      status: 201,
      description:
        "The token, in this answer only. Only from the browser session: a call with a token is 403, so a token that expires or leaks cannot make one that outlives it.",
      schema: newPersonalTokenSchema,
    }),
  },
  "/api/v1/tokens/:id": {
    DELETE: person(
      "Revoke one of the caller's own personal tokens, or (admins) anyone's (idempotent)",
      {
        ...ok("The revoked token.", personalTokenSchema),
      },
    ),
  },
};

const ERROR_REASONS: Record<number, string> = {
  400: "A path segment does not decode, or the body is not JSON.",
  401: "No session or token, or the token is unknown, revoked or expired.",
  403: "Not allowed: the caller's role, a cluster token off its cluster, or a cross-site write.",
  404: "No such resource, or a malformed id in the path.",
  409: "A newer state won: a version, a name taken, or a lost race. Read again and retry.",
  413: "The body is larger than the route takes (1 MiB; more for scenarios, events, clusters).",
  415: "The body is not `application/json`; a write signed by the session cookie must declare it even without a body.",
  422: "Invalid fields: `issues` names each field and why.",
  429: "The caller already has as many simulations and what-ifs queued or running as one person may (4).",
  500: "Something unexpected; the details are in the server's log only.",
  503: "The database cannot be reached (`Retry-After` says when to try again).",
};

function paramNames(pattern: string): string[] {
  return [...pattern.matchAll(/:(\w+)/g)].map((match) => match[1]!);
}

/** The error statuses an operation can answer, from what it reads and who may call it. */
export function errorStatusesOf(pattern: string, method: Method, operation: Operation): number[] {
  const isWrite = method !== "GET";
  const statuses = new Set<number>([500]);
  if (operation.usesDatabase !== false) statuses.add(503);
  const hasParams = paramNames(pattern).length > 0;
  if (hasParams) statuses.add(400).add(404);
  if (operation.caller !== "anyone") statuses.add(401).add(403);
  if (isWrite) statuses.add(403).add(415);
  if (operation.body) statuses.add(400).add(413).add(422);
  if (operation.query) statuses.add(422);
  if (operation.hasConflict) statuses.add(409);
  if (operation.hasQuota) statuses.add(429);
  return [...statuses].sort((a, b) => a - b);
}

function toOperationObject(
  pattern: string,
  method: Method,
  operation: Operation,
): ZodOpenApiOperationObject {
  const names = paramNames(pattern);
  const errorContent = { "application/json": { schema: errorBodySchema } };
  const responses: Record<string, ZodOpenApiResponseObject> = {
    [String(operation.status)]: {
      description: operation.description,
      content: {
        [operation.contentType ?? "application/json"]: operation.schema
          ? { schema: operation.schema }
          : {},
      },
    },
  };
  for (const status of errorStatusesOf(pattern, method, operation)) {
    responses[String(status)] = { description: ERROR_REASONS[status]!, content: errorContent };
  }
  const security: Record<string, string[]>[] =
    operation.caller === "anyone"
      ? []
      : operation.caller === "executor"
        ? [{ clusterToken: [] }, { personalToken: [] }, { session: [] }]
        : [{ personalToken: [] }, { session: [] }];
  return {
    operationId: `${method.toLowerCase()}${pattern
      .replace(/^\/api\/v1/, "")
      .replace(/[^A-Za-z0-9]+(\w)?/g, (_, next?: string) => (next ?? "").toUpperCase())}`,
    summary: operation.summary,
    security,
    ...(names.length > 0 || operation.query
      ? {
          requestParams: {
            ...(names.length > 0
              ? {
                  path: z.object(Object.fromEntries(names.map((name) => [name, pathParamSchema]))),
                }
              : {}),
            ...(operation.query ? { query: operation.query as z.ZodObject } : {}),
          },
        }
      : {}),
    ...(operation.body
      ? {
          requestBody: {
            required: true,
            content: { "application/json": { schema: operation.body } },
          },
        }
      : {}),
    responses,
  };
}

/** The OpenAPI path of a route pattern: `/api/v1/jobs/:id` -> `/api/v1/jobs/{id}`. */
export function toOpenApiPath(pattern: string): string {
  return pattern.replace(/:(\w+)/g, "{$1}");
}

/** Builds the document; `serverUrl` is the app's public origin when known. */
export function buildOpenApiDocument(serverUrl?: string) {
  const paths: Record<string, Record<string, ZodOpenApiOperationObject>> = {};
  for (const [pattern, methods] of Object.entries(API_ROUTES)) {
    for (const method of methods as Method[]) {
      const operation = OPERATIONS[pattern]?.[method];
      if (!operation) throw new Error(`No OpenAPI entry for ${method} ${pattern}.`);
      (paths[toOpenApiPath(pattern)] ??= {})[method.toLowerCase()] = toOperationObject(
        pattern,
        method,
        operation,
      );
    }
  }
  return createDocument({
    openapi: "3.1.0",
    info: {
      title: "Allot API",
      version: API_VERSION,
      description:
        "GPU-time budgets and fair-share scheduling. People call it with their browser session or a personal token (`Authorization: Bearer allot_p_...`, made on the API tokens page), executors with a cluster token (docs/executor.md). Every error has one shape: `{ error: { code, message, issues?, details? } }`.",
    },
    servers: serverUrl ? [{ url: serverUrl }] : undefined,
    components: {
      securitySchemes: {
        personalToken: { type: "http", scheme: "bearer", description: "A personal token." },
        clusterToken: {
          type: "http",
          scheme: "bearer",
          description: "A cluster's executor token.",
        },
        session: { type: "apiKey", in: "cookie", name: "next-auth.session-token" },
      },
    },
    paths,
  });
}
