// The jobs list (/jobs and GET /api/v1/jobs): one page of the jobs the caller may see, filtered
// and sorted in the database, with the total, the app clock it was read at and a note for what
// hides everything.
import "server-only";
import { getDb } from "./db/app-db";
import { AppError, type FieldIssue } from "../errors";
import type { Prisma } from "../generated/prisma/client";
import { estimateLiveStart, nodeNamerOf, summarizeLive } from "../sentences/live";
import type { JobListQuery } from "../validation/job-list";
import type { SessionUser } from "./users";
import { getNow } from "./db/clock";
import { budgetFilterIds, jobScope, type JobScope } from "./job-scope";
import { loadBudgetTree, toSec } from "./tick/load-state";
import { readRanking } from "./tick/ranking";

export type JobListRow = {
  id: string;
  name: string;
  /** SLURM's job id of a job submitted with sbatch; null for jobs submitted to Allot. */
  externalId: string | null;
  cluster: string;
  budgetPath: string;
  user: { id: string; name: string };
  gpus: number;
  state: string;
  priority: string;
  submittedSec: number;
  endedSec: number | null;
  /** Place in its cluster's queue (pending jobs only). */
  queuePosition: number | null;
  /** The budget's rank now, of `rankOf` ranked budgets; pending and running jobs only. */
  rank: number | null;
  rankOf: number | null;
  /** One plain sentence on why a pending job waits. */
  waitSummary: string | null;
  expectedStartAt: string | null;
  startNote: string | null;
};

export type JobListPage = {
  jobs: JobListRow[];
  /** Jobs matching the filters, on every page. */
  total: number;
  page: number;
  perPage: number;
  pageCount: number;
  /** What the caller sees: own jobs, their branch's (leads), or everyone's (admins). */
  scope: JobScope["kind"];
  /** Why the list may look empty or the page is past the end, in words. */
  notes: string[];
  /** The app clock when the page was read (seconds): the rows' times are read against it. */
  nowSec: number;
};

type Tree = Awaited<ReturnType<typeof loadBudgetTree>>;

type Resolved = {
  where: Prisma.JobWhereInput;
  filterWheres: [string, Prisma.JobWhereInput][];
};

/** What the query's cluster and budget filters name, and an issue for each that names nothing. */
type FilterTargets = { clusterId: string | null; budgetIds: string[] | null; issues: FieldIssue[] };

async function scopeOf(user: SessionUser): Promise<{ scope: JobScope; tree: Tree }> {
  const db = getDb();
  const [tree, leads] = await Promise.all([
    loadBudgetTree(db),
    user.isAdmin
      ? []
      : db.budgetLead.findMany({ where: { userId: user.id }, select: { nodeId: true } }),
  ]);
  return {
    tree,
    scope: jobScope(
      tree,
      user,
      leads.map((lead) => lead.nodeId),
    ),
  };
}

function scopeWhere(scope: JobScope): Prisma.JobWhereInput {
  if (scope.kind === "all") return {};
  if (scope.kind === "own") return { userId: scope.userId };
  return { OR: [{ userId: scope.userId }, { budgetId: { in: scope.budgetIds } }] };
}

async function findFilterTargets(query: JobListQuery, tree: Tree): Promise<FilterTargets> {
  const issues: FieldIssue[] = [];
  const cluster = query.cluster
    ? await getDb().cluster.findUnique({ where: { name: query.cluster }, select: { id: true } })
    : null;
  if (query.cluster && !cluster) {
    issues.push({ path: "cluster", message: `No cluster is named "${query.cluster}".` });
  }
  const budgetIds = query.budget ? budgetFilterIds(tree, query.budget) : null;
  if (query.budget && !budgetIds) {
    issues.push({ path: "budget", message: `No budget has the path "${query.budget}".` });
  }
  return { clusterId: cluster?.id ?? null, budgetIds, issues };
}

/** The query's filters as conditions; an unknown cluster or budget is a 422 naming the field. */
async function resolveFilters(query: JobListQuery, scope: JobScope, tree: Tree): Promise<Resolved> {
  const { clusterId, budgetIds, issues } = await findFilterTargets(query, tree);
  if (issues.length > 0) {
    throw new AppError("validation_failed", "The jobs list cannot be filtered so.", issues);
  }
  const filterWheres: [string, Prisma.JobWhereInput][] = [];
  if (query.state) filterWheres.push([`state ${query.state}`, { state: query.state }]);
  if (clusterId) filterWheres.push([`cluster ${query.cluster}`, { clusterId }]);
  if (budgetIds) filterWheres.push([`budget ${query.budget}`, { budgetId: { in: budgetIds } }]);
  if (query.q) {
    // The text a researcher has at hand: part of the name, or the id sbatch printed.
    filterWheres.push([
      `name containing "${query.q}" or SLURM job id ${query.q}`,
      { OR: [{ name: { contains: query.q, mode: "insensitive" } }, { externalId: query.q }] },
    ]);
  }
  if (query.user) filterWheres.push(["the person chosen", { userId: query.user }]);
  const where: Prisma.JobWhereInput = {
    AND: [scopeWhere(scope), ...filterWheres.map(([, filter]) => filter)],
  };
  return { where, filterWheres };
}

/**
 * The page's reading of the query's cluster and budget (it is lenient where the API is strict):
 * one that names nothing is dropped with a note ("Ignored cluster: No cluster is named ..."), so
 * the query the page seeds and the browser polls is one `GET /api/v1/jobs` accepts.
 */
export async function dropUnknownFilters(
  query: JobListQuery,
): Promise<{ query: JobListQuery; notes: string[] }> {
  // Most views filter by neither: then there is nothing to look up (listJobs reads the tree).
  if (!query.cluster && !query.budget) return { query, notes: [] };
  const { issues } = await findFilterTargets(query, await loadBudgetTree(getDb()));
  const kept = { ...query };
  for (const issue of issues) delete kept[issue.path as "cluster" | "budget"];
  return { query: kept, notes: issues.map((issue) => `Ignored ${issue.path}: ${issue.message}`) };
}

function orderOf(query: JobListQuery): Prisma.JobOrderByWithRelationInput[] {
  const dir = query.dir;
  const tail: Prisma.JobOrderByWithRelationInput[] = [{ submittedAt: "desc" }, { id: "desc" }];
  switch (query.sort) {
    case "submitted":
      return [{ submittedAt: dir }, { id: dir }];
    case "name":
      return [{ name: dir }, ...tail];
    case "gpus":
      return [{ gpus: dir }, ...tail];
    case "cluster":
      return [{ cluster: { name: dir } }, ...tail];
    case "state":
      return [{ state: dir }, ...tail];
  }
}

/** When nothing matches: which filter alone hides every job the caller sees (or the mix). */
async function emptyNote(scope: JobScope, filterWheres: Resolved["filterWheres"]): Promise<string> {
  const db = getDb();
  const base = scopeWhere(scope);
  if (filterWheres.length === 0 || (await db.job.count({ where: base })) === 0) {
    return scope.kind === "own" ? "You have no jobs yet." : "There are no jobs yet.";
  }
  const alone = await Promise.all(
    filterWheres.map(async ([label, filter]) => ({
      label,
      count: await db.job.count({ where: { AND: [base, filter] } }),
    })),
  );
  const hiding = alone.filter((entry) => entry.count === 0).map((entry) => entry.label);
  return hiding.length > 0
    ? `No job matches ${hiding.join(" or ")}: that filter alone hides every job.`
    : `Each filter matches jobs, but none matches ${filterWheres.map(([label]) => label).join(" and ")} together.`;
}

/**
 * One page of the jobs `user` may see (their own; a lead's branch; an admin's everyone), as
 * `query` filters and sorts them, with the app clock it was read at. An unknown cluster or
 * budget is a 422 (the page drops them first: dropUnknownFilters). A page past the end gives no
 * rows and a note.
 */
export async function listJobs(user: SessionUser, query: JobListQuery): Promise<JobListPage> {
  const db = getDb();
  const { scope, tree } = await scopeOf(user);
  const { where, filterWheres } = await resolveFilters(query, scope, tree);
  const notes: string[] = [];
  const [total, rows, clusters, now] = await Promise.all([
    db.job.count({ where }),
    db.job.findMany({
      where,
      orderBy: orderOf(query),
      skip: (query.page - 1) * query.perPage,
      take: query.perPage,
      select: {
        id: true,
        name: true,
        externalId: true,
        budgetId: true,
        gpus: true,
        state: true,
        priority: true,
        submittedAt: true,
        endedAt: true,
        queuePosition: true,
        waitReason: true,
        cluster: { select: { name: true } },
        user: { select: { id: true, name: true } },
      },
    }),
    db.cluster.findMany({
      select: { name: true, ranking: true, nodes: { select: { index: true, hostname: true } } },
    }),
    getNow(db),
  ]);
  const pageCount = Math.max(1, Math.ceil(total / query.perPage));
  if (total === 0) notes.push(await emptyNote(scope, filterWheres));
  else if (query.page > pageCount) {
    notes.push(`Page ${query.page} is past the last page (${pageCount}).`);
  }
  const nowSec = toSec(now);
  const rankings = new Map(
    clusters.map((cluster) => {
      const ranking = readRanking(cluster.ranking);
      const rankOf = ranking.filter((row) => row.isLeaf && row.rank !== null).length;
      const byId = new Map(ranking.map((row) => [row.id, row]));
      return [cluster.name, { byId, rankOf, nodeName: nodeNamerOf(cluster.nodes) }];
    }),
  );
  const pathOf = (budgetId: string): string => {
    const index = tree.indexById[budgetId];
    return index === undefined ? budgetId : tree.nodes[index]!.path;
  };
  return {
    jobs: rows.map((job) => {
      const ranking = rankings.get(job.cluster.name);
      const isOpen = job.state === "pending" || job.state === "running";
      const isPending = job.state === "pending";
      const rank = isOpen ? (ranking?.byId.get(job.budgetId)?.rank ?? null) : null;
      const waitReason = isPending ? job.waitReason : null;
      return {
        id: job.id,
        name: job.name,
        externalId: job.externalId,
        cluster: job.cluster.name,
        budgetPath: pathOf(job.budgetId),
        user: job.user,
        gpus: job.gpus,
        state: job.state,
        priority: job.priority,
        submittedSec: toSec(job.submittedAt),
        endedSec: job.endedAt ? toSec(job.endedAt) : null,
        queuePosition: isPending ? job.queuePosition : null,
        rank,
        rankOf: rank === null ? null : (ranking?.rankOf ?? null),
        waitSummary: waitReason
          ? summarizeLive(waitReason, nowSec, {
              rankedBudgets: ranking?.rankOf,
              nodeName: ranking?.nodeName,
              ...(job.queuePosition !== null ? { jobsAhead: job.queuePosition - 1 } : {}),
            })
          : null,
        ...(isPending
          ? estimateLiveStart(waitReason, nowSec, ranking?.nodeName)
          : { expectedStartAt: null, startNote: null }),
      };
    }),
    total,
    page: query.page,
    perPage: query.perPage,
    pageCount,
    scope: scope.kind,
    notes,
    nowSec,
  };
}

export type JobListOptions = {
  clusters: string[];
  /** Budget paths the caller may filter by (leaves and branches they see), tree order. */
  budgets: string[];
  /** People whose jobs the caller sees (leads, admins); empty for everyone else. */
  users: { id: string; name: string }[];
};

type Person = { id: string; name: string };

/** Budgets (ids) and people (leads, admins) the caller's filters offer. */
async function scopeChoices(
  user: SessionUser,
  scope: JobScope,
  tree: Tree,
): Promise<{ budgetIds: Set<string>; users: Person[] }> {
  const db = getDb();
  if (scope.kind === "all") {
    const users = await db.user.findMany({
      select: { id: true, name: true },
      orderBy: { name: "asc" },
    });
    return { budgetIds: new Set(tree.nodes.map((node) => node.id)), users };
  }
  if (scope.kind === "own") {
    const rows = await db.budgetMember.findMany({
      where: { userId: user.id },
      select: { nodeId: true },
    });
    return { budgetIds: new Set(rows.map((row) => row.nodeId)), users: [] };
  }
  const rows = await db.budgetMember.findMany({
    where: { nodeId: { in: scope.budgetIds } },
    select: { user: { select: { id: true, name: true } } },
  });
  const byId = new Map<string, Person>(rows.map((row) => [row.user.id, row.user]));
  byId.set(user.id, { id: user.id, name: user.name });
  return {
    budgetIds: new Set(scope.budgetIds),
    users: [...byId.values()].sort((a, b) => a.name.localeCompare(b.name)),
  };
}

/** The choices of the list's filters for `user`. */
export async function listJobFilterOptions(user: SessionUser): Promise<JobListOptions> {
  const db = getDb();
  const { scope, tree } = await scopeOf(user);
  const [clusters, { budgetIds, users }] = await Promise.all([
    db.cluster.findMany({ select: { name: true }, orderBy: { name: "asc" } }),
    scopeChoices(user, scope, tree),
  ]);
  return {
    clusters: clusters.map((cluster) => cluster.name),
    budgets: tree.nodes
      .filter((node) => node.depth > 0 && budgetIds.has(node.id))
      .map((node) => node.path)
      .sort((a, b) => a.localeCompare(b)),
    users,
  };
}
