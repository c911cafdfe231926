import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPrismaClient, type Db } from "../data/db/client";
import { fromSec, toSec } from "../data/db/epoch";
import { openScratchDatabase, type ScratchDatabase } from "../testing/scratch-database";
import { dateNodeStates } from "./seed-node-states";
import { upsertClusters } from "./seed-org";

const databaseUrl = inject("databaseUrl");
const isEmbedded = inject("isEmbeddedDatabase");

describe("dateNodeStates", () => {
  let scratch: ScratchDatabase;
  let db: Db;

  beforeAll(async () => {
    scratch = await openScratchDatabase(databaseUrl, isEmbedded);
    db = createPrismaClient(scratch.url, 2);
    await upsertClusters(db, [{ name: "c", gpuType: "H100", nodes: 3, gpusPerNode: 8 }]);
  }, 120_000);
  afterAll(async () => {
    await db.$disconnect();
    await scratch.drop();
  });

  it("dates a node's state by its last seeded change, when that change is the state in force", async () => {
    const cluster = await db.cluster.findUniqueOrThrow({ where: { name: "c" } });
    const seededAt = await db.clusterNode.findMany({ where: { clusterId: cluster.id } });
    const dayAgoSec = toSec(seededAt[0]!.healthChangedAt) - 86_400;
    await db.clusterNode.update({
      where: { clusterId_index: { clusterId: cluster.id, index: 2 } },
      data: { health: "down" },
    });
    await db.$transaction((tx) =>
      dateNodeStates(
        tx,
        {
          nodeChanges: [
            // Node 0: drained, then healthy again an hour later (its state now).
            { cluster: "c", node: 0, atSec: dayAgoSec, health: "draining" },
            { cluster: "c", node: 0, atSec: dayAgoSec + 3600, health: "healthy" },
            // Node 2 went down since: the seeded change is not the one in force.
            { cluster: "c", node: 2, atSec: dayAgoSec, health: "healthy" },
          ],
        },
        new Map([["c", cluster.id]]),
      ),
    );
    const nodes = await db.clusterNode.findMany({
      where: { clusterId: cluster.id },
      orderBy: { index: "asc" },
    });
    expect(nodes.map((node) => node.healthChangedAt)).toEqual([
      fromSec(dayAgoSec + 3600),
      seededAt.find((node) => node.index === 1)!.healthChangedAt,
      seededAt.find((node) => node.index === 2)!.healthChangedAt,
    ]);
  });
});
