// The jobs list's two readers of one query: GET /api/v1/jobs refuses a cluster or budget that
// names nothing (422 naming the field), the page drops it with a note (dropUnknownFilters) and
// polls the route with the rest; both answers carry the app clock the rows were read at.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { GET as getJobs } from "../../app/api/v1/jobs/route";
import { DEMO_USERS } from "../demo/lab-org";
import { createPersonalToken } from "../demo/seed-org";
import { withDefaults } from "../validation/job-list";
import { createPrismaClient } from "./db/client";
import { getNow } from "./db/clock";
import { dropUnknownFilters, listJobs } from "./job-list";
import type { SessionUser } from "./users";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl, 2);
let researcher: SessionUser;
let token = "";

function getList(search: string): Promise<Response> {
  return getJobs(
    new Request(`http://localhost/api/v1/jobs${search}`, {
      headers: { authorization: `Bearer ${token}` },
    }),
    { params: Promise.resolve({}) },
  );
}

beforeAll(async () => {
  await seedDemoLab(databaseUrl, { withHistory: false });
  researcher = await db.user.findUniqueOrThrow({
    where: { email: DEMO_USERS.researcher.email },
    select: { id: true, email: true, name: true, isAdmin: true },
  });
  token = await createPersonalToken(db, researcher.id, "zz-job-list");
});

afterAll(async () => {
  await db.apiToken.deleteMany({ where: { name: "zz-job-list" } });
  await db.$disconnect();
});

describe("the jobs list", () => {
  it("answers with the app clock the page was read at", async () => {
    const before = (await getNow()).getTime() / 1000;
    const list = await listJobs(researcher, withDefaults({ state: "pending" }));
    expect(list.nowSec).toBeGreaterThanOrEqual(before);
    const response = await getList("?state=pending");
    expect(response.status).toBe(200);
    const body = (await response.json()) as { nowSec: number; scope: string; notes: string[] };
    expect(body.nowSec).toBeGreaterThanOrEqual(list.nowSec);
    expect(body.scope).toBe("own");
  });

  it("refuses an unknown cluster or budget on the API, naming each field", async () => {
    const response = await getList("?cluster=zz-nowhere&budget=zz/none&state=running");
    expect(response.status).toBe(422);
    const body = (await response.json()) as {
      error: { code: string; issues: { path: string; message: string }[] };
    };
    expect(body.error.code).toBe("validation_failed");
    expect(body.error.issues).toEqual([
      { path: "cluster", message: 'No cluster is named "zz-nowhere".' },
      { path: "budget", message: 'No budget has the path "zz/none".' },
    ]);
  });

  it("drops them for the page with a note, keeping every other filter", async () => {
    const query = withDefaults({ cluster: "zz-nowhere", budget: "zz/none", state: "running" });
    const dropped = await dropUnknownFilters(query);
    expect(dropped.notes).toEqual([
      'Ignored cluster: No cluster is named "zz-nowhere".',
      'Ignored budget: No budget has the path "zz/none".',
    ]);
    expect(dropped.query).toEqual(withDefaults({ state: "running" }));
    const kept = await dropUnknownFilters(withDefaults({ cluster: "b300" }));
    expect(kept).toEqual({ query: withDefaults({ cluster: "b300" }), notes: [] });
    await expect(listJobs(researcher, dropped.query)).resolves.toMatchObject({ page: 1 });
  });
});
