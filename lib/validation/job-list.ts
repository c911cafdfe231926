// The jobs list's query (/jobs search params, GET /api/v1/jobs): filters, sort and page. The API
// refuses a bad value (422 naming the field); the page drops it and says so (parseJobListQuery).
import { z } from "zod";
import { lineString } from "../text";

export const JOB_STATES = [
  "pending",
  "running",
  "completed",
  "failed",
  "preempted",
  "cancelled",
] as const;
export const JOB_SORTS = ["submitted", "name", "gpus", "cluster", "state"] as const;
export const PAGE_SIZES = [25, 50, 100] as const;
export const DEFAULT_PAGE_SIZE = 50;

export type JobSort = (typeof JOB_SORTS)[number];

// Empty fields of a submitted form mean "not given".
const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value) => (value === "" || value === null ? undefined : value), schema.optional());

const wholeNumber = (name: string, max: number) =>
  z.coerce
    .number({ error: `${name} must be a number.` })
    .int(`${name} must be a whole number.`)
    .min(1, `${name} starts at 1.`)
    .max(max, `${name} is at most ${max}.`);

export const jobListQuerySchema = z
  .object({
    state: optional(
      z.enum(JOB_STATES, { error: `State is one of ${JOB_STATES.join(", ")}.` }),
    ).meta({ description: "Only jobs in this state." }),
    cluster: optional(
      lineString().trim().max(100, "A cluster name has at most 100 characters."),
    ).meta({ description: "Only jobs of this cluster, by name (a name no cluster has: 422)." }),
    budget: optional(
      lineString().trim().max(400, "A budget path has at most 400 characters."),
    ).meta({
      description:
        "Only jobs charged to this budget or below it, by path (e.g. `language/lm-pretrain`; a path no budget has: 422).",
    }),
    q: optional(lineString().trim().max(120, "Search text has at most 120 characters.")).meta({
      description:
        "Only jobs whose name contains this text (any case), or whose SLURM job id (`externalId`) is this text.",
    }),
    user: optional(lineString().trim().max(64, "A user id has at most 64 characters.")).meta({
      description:
        "Only jobs of this person, by id (leads and admins; within what the caller sees).",
    }),
    sort: optional(z.enum(JOB_SORTS, { error: `Sort is one of ${JOB_SORTS.join(", ")}.` })).meta({
      description: "Sort key (default `submitted`).",
    }),
    dir: optional(z.enum(["asc", "desc"], { error: "Direction is asc or desc." })).meta({
      description: "Sort direction (default: newest, most GPUs first; names A to Z).",
    }),
    page: optional(wholeNumber("Page", 1_000_000)).meta({ description: "Page, from 1." }),
    perPage: optional(
      z.coerce
        .number({ error: "Rows per page must be a number." })
        .refine((value) => (PAGE_SIZES as readonly number[]).includes(value), {
          message: `Rows per page is one of ${PAGE_SIZES.join(", ")}.`,
        }),
    ).meta({
      description: `Rows per page: ${PAGE_SIZES.join(", ")} (default ${DEFAULT_PAGE_SIZE}).`,
    }),
  })
  .meta({ id: "JobListQuery" });

export type JobListQueryInput = z.output<typeof jobListQuerySchema>;

/** The query with its defaults filled in. */
export type JobListQuery = Omit<JobListQueryInput, "sort" | "dir" | "page" | "perPage"> & {
  sort: JobSort;
  dir: "asc" | "desc";
  page: number;
  perPage: number;
};

/** The direction a sort key reads best in when none is given. */
export function defaultDirection(sort: JobSort): "asc" | "desc" {
  return sort === "submitted" || sort === "gpus" ? "desc" : "asc";
}

export function withDefaults(input: JobListQueryInput): JobListQuery {
  const sort = input.sort ?? "submitted";
  return {
    ...input,
    sort,
    dir: input.dir ?? defaultDirection(sort),
    page: input.page ?? 1,
    perPage: input.perPage ?? DEFAULT_PAGE_SIZE,
  };
}

/** One value per key: the first of repeated keys. */
export function firstValues(
  params: URLSearchParams | Record<string, string | string[] | undefined>,
): Record<string, string> {
  const entries =
    params instanceof URLSearchParams
      ? [...params.keys()].map((key) => [key, params.get(key)] as const)
      : Object.entries(params).map(
          ([key, value]) => [key, Array.isArray(value) ? value[0] : value] as const,
        );
  return Object.fromEntries(entries.filter((entry): entry is [string, string] => entry[1] != null));
}

/**
 * The page's reading of its search params: every valid field kept, every invalid one dropped
 * with a note that names it and why ("Ignored state=done: State is one of ..."). Never throws.
 *
 * @example parseJobListQuery({ state: "done", page: "2" }) // { query: { page: 2, ... }, notes: ["Ignored state=done: ..."] }
 */
export function parseJobListQuery(raw: Record<string, string>): {
  query: JobListQuery;
  notes: string[];
} {
  const input: Record<string, string> = { ...raw };
  const notes: string[] = [];
  for (let attempt = 0; attempt < 12; attempt += 1) {
    const parsed = jobListQuerySchema.safeParse(input);
    if (parsed.success) return { query: withDefaults(parsed.data), notes };
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? "");
      if (!(key in input)) continue;
      notes.push(`Ignored ${key}=${input[key]!.slice(0, 60)}: ${issue.message}`);
      delete input[key];
    }
  }
  return { query: withDefaults({}), notes };
}
