// POST /api/v1/clusters/{name}/events through its route handler: a batch with one bad event
// is refused whole, as a 422 naming the event and the field, with nothing written, so the
// executor can fix it and send the batch again.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { POST } from "../../app/api/v1/clusters/[name]/events/route";
import { createPrismaClient } from "../data/db/client";
import { createClusterToken } from "../data/tokens";
import { DEMO_USERS } from "../demo/lab-org";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl, 2);
const CLUSTER = "b200";
let token = "";

function post(body: unknown): Promise<Response> {
  return POST(
    new Request(`http://localhost/api/v1/clusters/${CLUSTER}/events`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify(body),
    }),
    { params: Promise.resolve({ name: CLUSTER }) },
  );
}

async function healthOf(indices: number[]): Promise<string[]> {
  const nodes = await db.clusterNode.findMany({
    where: { cluster: { name: CLUSTER }, index: { in: indices } },
    orderBy: { index: "asc" },
    select: { health: true },
  });
  return nodes.map((node) => node.health);
}

beforeAll(async () => {
  await seedDemoLab(databaseUrl, { withHistory: false });
  const admin = await db.user.findUniqueOrThrow({ where: { email: DEMO_USERS.admin.email } });
  token = (await createClusterToken(CLUSTER, "zz-events executor", admin.id)).token;
});
afterAll(async () => {
  await post({
    events: [60, 61].map((node) => ({
      id: `zz-events-restore-${node}`,
      kind: "node.healthy",
      node,
    })),
  });
  await db.apiToken.deleteMany({ where: { name: "zz-events executor" } });
  await db.$disconnect();
});

describe("executor event batches", () => {
  const batch = [
    { id: "zz-events-1", kind: "node.draining", node: 60 },
    { id: "zz-events-2", kind: "node.down", node: 61, message: "ECC errors\u0000 on GPU 3" },
    { id: "zz-events-3", kind: "node.down", node: 2 ** 31 },
  ];

  it("refuses a batch with bad events as a 422 naming each event's field, writing nothing", async () => {
    const response = await post({ events: batch });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({
      error: {
        code: "validation_failed",
        message:
          'Event 1 (id "zz-events-2") is invalid, so none of the batch was applied: fix or drop it and send the batch again.',
        issues: [
          {
            path: "events.1.message",
            message:
              "Remove the control character U+0000 at position 11: text may contain tabs and line breaks, but no other control characters.",
          },
          { path: "events.2.node", message: "Use at most 2,147,483,647." },
        ],
      },
    });
    expect(await db.executorEvent.count({ where: { eventId: { startsWith: "zz-events" } } })).toBe(
      0,
    );
    expect(await healthOf([60, 61])).toEqual(["healthy", "healthy"]);
  });

  it("applies the whole batch once it is fixed and sent again", async () => {
    const fixed = [
      batch[0],
      { ...batch[1], message: "ECC errors on GPU 3" },
      { ...batch[2], node: 61 },
    ];
    const response = await post({ events: fixed });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { results: { id: string; outcome: string }[] };
    expect(body.results.map((result) => [result.id, result.outcome])).toEqual([
      ["zz-events-1", "applied"],
      ["zz-events-2", "applied"],
      ["zz-events-3", "ignored"],
    ]);
    expect(await healthOf([60, 61])).toEqual(["draining", "down"]);
  });
});
