// A person may have a few simulations and what-ifs queued or running at once (two workers
// serve everyone): the next is refused with 429 and nothing is stored.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { POST as postSimulation } from "../../app/api/v1/simulations/route";
import { createPrismaClient } from "../data/db/client";
import { issuePersonalToken } from "../data/personal-tokens";
import { MAX_WAITING_PER_PERSON } from "../simulations/store/simulations";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl, 2);
const LABEL = "zz-quota";
let userId = "";
let token = "";

beforeAll(async () => {
  await seedDemoLab(databaseUrl, { withHistory: false });
  // A person of this test's own: other files' runs in the shared database do not count.
  const email = `${LABEL}@lab.example`;
  userId = (await db.user.create({ data: { email, name: "Quota Test" }, select: { id: true } })).id;
  token = (await issuePersonalToken(userId, { name: LABEL, expiresInDays: 1 })).token;
});
afterAll(async () => {
  await db.simulation.deleteMany({ where: { name: { startsWith: LABEL } } });
  await db.apiToken.deleteMany({ where: { name: LABEL } });
  await db.user.delete({ where: { id: userId } });
  await db.$disconnect();
});

describe("POST /api/v1/simulations, per person", () => {
  it("refuses one more than a person may have waiting or running (429), storing nothing", async () => {
    // Running, as a worker holds them: no worker is started for them here.
    await db.simulation.createMany({
      data: Array.from({ length: MAX_WAITING_PER_PERSON }, (_, i) => ({
        userId,
        name: `${LABEL} ${i}`,
        source: "lab",
        options: {},
        status: "running" as const,
      })),
    });
    const before = await db.simulation.count();
    const response = await postSimulation(
      new Request("http://localhost/api/v1/simulations", {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify({ source: "lab", name: `${LABEL} one more`, options: { days: 1 } }),
      }),
      { params: Promise.resolve({}) } as never,
    );
    expect(response.status).toBe(429);
    const body = (await response.json()) as { error: { code: string; message: string } };
    expect(body.error).toEqual({
      code: "too_many_requests",
      message: `You have ${MAX_WAITING_PER_PERSON} simulations and what-ifs queued or running; one person may have ${MAX_WAITING_PER_PERSON} at most: start this one when one of them has finished.`,
    });
    expect(await db.simulation.count()).toBe(before);
  });
});
