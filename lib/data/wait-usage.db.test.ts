// A waiting job's sentence and the ranking shown beside it agree on usage of share. The tick
// keeps a stored reason while only the moment and the ratios move (waitKeyOf), so the job page,
// the API and the live queue must write the sentence with the ratios of the last ranking.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { DEMO_USERS } from "../demo/lab-org";
import type { WaitReason } from "../engine";
import { Prisma } from "../generated/prisma/client";
import { getDb } from "./db/app-db";
import { getNow } from "./db/clock";
import { getJobView } from "./job-views";
import { getClusterQueue } from "./queue";
import { toSec } from "./tick/load-state";
import type { RankingRow } from "./tick/ranking";

const databaseUrl = inject("databaseUrl");
let jobId = "";
let saved: { ranking: unknown; tickedAt: Date | null } = { ranking: null, tickedAt: null };

beforeAll(async () => {
  await seedDemoLab(databaseUrl, { withHistory: false });
  const db = getDb();
  const node = (name: string) => db.budgetNode.findFirstOrThrow({ where: { name } });
  const [root, language, vision, pretrain, videoGen] = await Promise.all(
    ["lab", "language", "vision", "lm-pretrain", "video-gen"].map(node),
  );
  const cluster = await db.cluster.findUniqueOrThrow({ where: { name: "b300" } });
  saved = { ranking: cluster.ranking, tickedAt: cluster.tickedAt };
  const user = await db.user.findUniqueOrThrow({ where: { email: DEMO_USERS.researcher.email } });
  const atSec = toSec(await getNow(db));
  // As the pass stored it, an hour ago: pretrain at 50%, video-gen at 20%, language at 90%,
  // vision at 40%.
  const reason: WaitReason = {
    rule: "wait-resources",
    atSec: atSec - 3600,
    budget: { id: pretrain!.id, path: "language/lm-pretrain", rank: 2, usageRatio: 0.5 },
    needGpus: 8,
    isWholeNodes: false,
    freeGpus: 0,
    freeWholeNodes: 0,
    protectedGpus: 0,
    readyAtSec: null,
    heldByHigherGpus: 88,
    heldByOwnGpus: 0,
    heldWithinShareGpus: 0,
    unusableGpus: 0,
    budgetsAbove: 1,
    reservedNodes: [],
    heldMostBy: {
      gpus: 88,
      budget: { id: videoGen!.id, path: "vision/video-gen", rank: 1, usageRatio: 0.2 },
      parting: {
        higher: { path: "vision", usageRatio: 0.4 },
        lower: { path: "language", usageRatio: 0.9 },
      },
    },
  };
  const job = await db.job.create({
    data: {
      clusterId: cluster.id,
      budgetId: pretrain!.id,
      userId: user.id,
      name: "waits with an old reason",
      gpus: 8,
      minRuntimeSec: 3600,
      isResumable: true,
      waitReason: reason,
      waitRule: reason.rule,
      queuePosition: 1,
    },
  });
  jobId = job.id;
  // The last pass's ranking, now: pretrain at 61%, video-gen at 27%, language 95%, vision 52%.
  const row = (
    id: string,
    path: string,
    usageRatio: number,
    rank: number | null,
    parentId: string | null,
  ): RankingRow => ({
    id,
    path,
    name: path.split("/").at(-1) ?? "",
    depth: path === "" ? 0 : path.split("/").length,
    isLeaf: rank !== null,
    effectiveShare: 0.1,
    usageGpuSeconds: 0,
    usageRatio,
    rank,
    parentId,
  });
  const ranking = [
    row(root!.id, "", 0.8, null, null),
    row(vision!.id, "vision", 0.52, null, root!.id),
    row(videoGen!.id, "vision/video-gen", 0.27, 1, vision!.id),
    row(language!.id, "language", 0.95, null, root!.id),
    row(pretrain!.id, "language/lm-pretrain", 0.61, 2, language!.id),
  ];
  await db.cluster.update({
    where: { id: cluster.id },
    data: { ranking, tickedAt: new Date() },
  });
});

afterAll(async () => {
  const db = getDb();
  await db.job.deleteMany({ where: { id: jobId } });
  await db.cluster.update({
    where: { name: "b300" },
    // A cluster never ranked had none: put the database's null back, not the test's ranking.
    data: { ranking: saved.ranking ?? Prisma.DbNull, tickedAt: saved.tickedAt },
  });
  await db.$disconnect();
});

describe("a waiting job's sentence", () => {
  const now =
    "vision (at 52% of its weekly share) ranks above language (at 95%), where the two budgets' " +
    "branches part, so vision/video-gen (at 27% of its weekly share) ranks above " +
    "language/lm-pretrain (at 61%)";

  it("on the job page and in the API: the ranking's usage of share, not the stored reason's", async () => {
    const view = await getJobView(jobId);
    expect(view.budget.usageRatio).toBe(0.61);
    expect(view.waitSentence).toContain(now);
  });

  it("in the live queue: the same figures as its usage column", async () => {
    const queue = await getClusterQueue("b300");
    const row = queue.pending.find((entry) => entry.jobId === jobId);
    expect(row?.usageRatio).toBe(0.61);
    expect(row?.sentence).toContain(now);
  });
});
