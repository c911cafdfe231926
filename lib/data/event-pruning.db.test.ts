// Old executor events are deleted, batch by batch; recent ones stay.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { removeTestCluster } from "../testing/remove-cluster";
import { createPrismaClient } from "./db/client";
import { fromSec } from "./db/epoch";
import { EVENT_KEEP_SEC, pruneExecutorEvents } from "./event-pruning";

const db = createPrismaClient(inject("databaseUrl"), 2);
const CLUSTER = "zz-event-pruning";
const NOW_SEC = Date.UTC(2026, 11, 1) / 1000;
let clusterId = "";

beforeAll(async () => {
  clusterId = (
    await db.cluster.create({
      data: { name: CLUSTER, gpuType: "test", nodes: { create: [{ index: 0, gpus: 8 }] } },
      select: { id: true },
    })
  ).id;
  const event = (eventId: string, ageSec: number) => ({
    clusterId,
    eventId,
    kind: "node.healthy",
    payload: { id: eventId, kind: "node.healthy", node: 0 },
    receivedAt: fromSec(NOW_SEC - ageSec),
  });
  // More old events than one batch deletes, then a day-old one and one just inside the limit.
  await db.executorEvent.createMany({
    data: Array.from({ length: 5_003 }, (_, index) => event(`old-${index}`, EVENT_KEEP_SEC + 60)),
  });
  await db.executorEvent.createMany({
    data: [event("recent", 86_400), event("at-the-limit", EVENT_KEEP_SEC - 60)],
  });
});
afterAll(async () => {
  await removeTestCluster(db, CLUSTER);
  await db.$disconnect();
});

describe("pruneExecutorEvents", () => {
  it("deletes the events older than the keeping time, in batches, and keeps the others", async () => {
    expect(await pruneExecutorEvents(db, NOW_SEC)).toBe(5_003);
    const left = await db.executorEvent.findMany({
      where: { clusterId },
      select: { eventId: true },
      orderBy: { eventId: "asc" },
    });
    expect(left.map((row) => row.eventId)).toEqual(["at-the-limit", "recent"]);
    expect(await pruneExecutorEvents(db, NOW_SEC)).toBe(0);
  });
});
