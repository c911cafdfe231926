// Response bodies described for the API document (lib/api/openapi.ts): the error shape every
// route shares, and the answers an executor or the CLI reads field by field (plan, event
// results, tokens, health). Each is checked at compile time against the type the code
// returns, so the document cannot drift from the handlers.
import { z } from "zod";
import type { Plan, IngestResult } from "../data/executor";
import type { ChargeableBudget } from "../data/jobs";
import type { PersonalTokenView } from "../data/personal-tokens";
import type { SessionUser } from "../data/users";
import { ERROR_STATUS, type ErrorCode } from "../errors";

/** True only when A and B are the same type; `const x: Same<A, B> = true` fails otherwise. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export const errorBodySchema = z
  .object({
    error: z.object({
      code: z.enum(ERROR_CODES),
      message: z.string(),
      issues: z
        .array(z.object({ path: z.string(), message: z.string() }))
        .optional()
        .meta({ description: "Field problems: `path` names the field, e.g. `events.3.runId`." }),
      details: z.unknown().optional().meta({ description: "Extra state, e.g. on a 409." }),
    }),
  })
  .meta({ id: "Error", description: "The one error shape of every route (lib/api/respond.ts)." });

const nodeSlice = z.object({ node: z.number().int(), gpus: z.number().int() });
const reason = z.unknown().meta({
  description:
    "The engine's structured reason (an object with its `rule`); `sentence` says it in words.",
});
const isoInstant = z.string().meta({ format: "date-time" });

export const planSchema = z
  .object({
    cluster: z.string(),
    at: isoInstant,
    atSec: z.number().int(),
    nodes: z.array(
      z.object({
        index: z.number().int(),
        hostname: z.string().nullable(),
        gpus: z.number().int(),
        health: z.string(),
      }),
    ),
    starts: z.array(
      z.object({
        runId: z.string(),
        jobId: z.string(),
        externalId: z.string().nullable(),
        jobName: z.string(),
        gpus: z.number().int(),
        placement: z.array(nodeSlice),
        isAllocated: z.boolean(),
        protectedUntil: isoInstant,
        remainingWorkSec: z.number().nullable(),
        reason,
        sentence: z.string(),
      }),
    ),
    preemptions: z.array(
      z.object({
        runId: z.string(),
        jobId: z.string(),
        externalId: z.string().nullable(),
        isResumable: z.boolean(),
        placement: z.array(nodeSlice),
        endReason: z.string(),
        reason,
        sentence: z.string(),
      }),
    ),
    running: z.array(
      z.object({
        runId: z.string(),
        jobId: z.string(),
        externalId: z.string(),
        placement: z.array(nodeSlice),
        protectedUntil: isoInstant,
      }),
    ),
    waiting: z.array(
      z.object({
        jobId: z.string(),
        externalId: z.string(),
        queuePosition: z.number().int().nullable(),
        sentence: z.string(),
      }),
    ),
    cancelled: z.array(z.object({ jobId: z.string(), externalId: z.string() })),
  })
  .meta({ id: "Plan", description: "What the executor should start and stop (docs/executor.md)." });

/** The route's summary of the tick after the events (app/api/v1/clusters/[name]/events). */
const tickSchema = z.object({
  isSkipped: z.boolean(),
  starts: z.number().int(),
  preemptions: z.number().int(),
  drainsCompleted: z.number().int(),
});

export const eventResultsSchema = z
  .object({
    results: z.array(
      z.object({
        id: z.string(),
        outcome: z.enum(["applied", "duplicate", "ignored", "refused"]),
        note: z.string().optional(),
        jobId: z.string().optional(),
      }),
    ),
    tick: tickSchema
      .nullable()
      .meta({ description: "null when no event changed anything, so no tick ran." }),
    tickError: z
      .string()
      .optional()
      .meta({ description: "The events were committed, but the tick after them failed." }),
  })
  .meta({ id: "EventResults", description: "Each event's outcome, then the tick's counts." });

export const personalTokenSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    prefix: z.string(),
    createdAt: isoInstant,
    lastUsedAt: isoInstant.nullable(),
    expiresAt: isoInstant.nullable(),
    revokedAt: isoInstant.nullable(),
  })
  .meta({ id: "PersonalToken" });

export const newPersonalTokenSchema = personalTokenSchema
  .extend({
    token: z.string().meta({ description: "The token itself: shown in this answer only." }),
  })
  .meta({ id: "NewPersonalToken" });

export const healthSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  database: z.enum(["ok", "unreachable"]),
  replica: z.enum(["leader", "follower"]).meta({
    description:
      "`leader`: this server holds the leader lease and runs the tick timer and the demo executor (docs/deploy.md).",
  }),
});

export const meSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    email: z.string(),
    isAdmin: z.boolean(),
    budgets: z
      .array(z.object({ id: z.string(), path: z.string() }))
      .meta({ description: "The leaf budgets the caller may charge (submit with their id)." }),
  })
  .meta({ id: "Me", description: "The caller: whom the token or session belongs to." });

const planMatches: Same<z.output<typeof planSchema>, Plan> = true;
const eventResultMatches: Same<
  z.output<typeof eventResultsSchema>["results"][number],
  IngestResult["results"][number]
> = true;
const tokenMatches: Same<z.output<typeof personalTokenSchema>, PersonalTokenView> = true;
const meMatches: Same<
  z.output<typeof meSchema>,
  SessionUser & { budgets: ChargeableBudget[] }
> = true;
export const RESPONSE_TYPES_MATCH = planMatches && eventResultMatches && tokenMatches && meMatches;
