// The demo executor keeps a cluster's demo going when a lead removes a budget it submits to.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../../prisma/seed";
import { setChildren } from "../../data/budget-edits";
import { changePerson } from "../../data/budget-people";
import { getChildrenState } from "../../data/budget-state";
import { createPrismaClient } from "../../data/db/client";
import { createTestBranch, type TestBranch } from "../../testing/budget-branch";
import { submitArrivals, type ClusterDriver } from "./executor";
import type { Arrival } from "./arrivals";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl, 2);
let branch: TestBranch;

beforeAll(async () => {
  await seedDemoLab(databaseUrl, { withHistory: false });
  branch = await createTestBranch(db, "zz-driver");
});
afterAll(async () => {
  await db.job.updateMany({
    where: { name: "driver test", state: { in: ["pending", "running"] } },
    data: { state: "cancelled", endedAt: new Date() },
  });
  const root = await getChildrenState(db, branch.rootId);
  await setChildren(branch.users.admin, branch.rootId, {
    version: root.version,
    reason: "test clean-up",
    children: root.children.filter((child) => !child.name.startsWith("zz-driver")),
  });
  await db.$disconnect();
});

describe("submitArrivals", () => {
  it("drops the arrivals of a removed budget for good and submits the others", async () => {
    const { pi, researcher } = branch.users;
    const aliceId = branch.ids["zz-driver/proj/alice"]!;
    const bobId = branch.ids["zz-driver/proj/bob"]!;
    await changePerson(pi, bobId, "members", researcher, true);
    const arrival = (budgetId: string, offsetSec: number): Arrival => ({
      offsetSec,
      userId: researcher.id,
      input: {
        cluster: "b300",
        budgetId,
        name: "driver test",
        gpus: 1,
        minRuntimeSec: 600,
        isResumable: true,
        priority: "normal",
      },
    });
    const arrivals = [arrival(aliceId, 1), arrival(bobId, 2), arrival(aliceId, 3)];
    const driver: ClusterDriver = {
      cluster: { name: "b300", gpuType: "B300", nodes: 11, gpusPerNode: 8 },
      arrivals,
      lastSec: null,
    };
    const projId = branch.ids["zz-driver/proj"]!;
    const proj = await getChildrenState(db, projId);
    await setChildren(pi, projId, {
      version: proj.version,
      reason: "bob leaves",
      children: proj.children.filter((child) => child.id !== bobId),
    });

    const lines: string[] = [];
    await submitArrivals(driver, arrivals, { log: (line) => lines.push(line) });
    expect(driver.arrivals.map((a) => a.offsetSec)).toEqual([1, 3]);
    expect(lines).toEqual([expect.stringMatching(/stops submitting to 1 budget/)]);
    const queued = await db.job.findMany({
      where: { name: "driver test" },
      select: { budgetId: true },
    });
    expect(queued.map((job) => job.budgetId)).toEqual([aliceId, aliceId]);
  });
});
