// The events and plan routes refuse a caller that reports itself as a SLURM bridge for a
// cluster another executor drives (here the demo's b300, driven by the builtin executor), with
// a 409 naming the cluster and its executor and nothing written; on a registered SLURM
// cluster the same calls are answered.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { POST as postEvents } from "../../app/api/v1/clusters/[name]/events/route";
import { GET as getPlan } from "../../app/api/v1/clusters/[name]/plan/route";
import { registerCluster } from "../data/cluster-registration";
import { createPrismaClient } from "../data/db/client";
import { issuePersonalToken } from "../data/personal-tokens";
import { DEMO_USERS } from "../demo/lab-org";
import { removeTestCluster } from "../testing/remove-cluster";
import { sbatchSubmitted } from "../testing/sbatch-event";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl, 2);
const DEMO_CLUSTER = "b300";
const SLURM_CLUSTER = "zz-kind-slurm";
const LABEL = "zz-kind admin";
let adminToken = "";

function call(
  cluster: string,
  { body, kind }: { body?: unknown; kind?: string } = {},
): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${adminToken}` };
  if (kind !== undefined) headers["x-allot-executor"] = kind;
  const context = { params: Promise.resolve({ name: cluster }) };
  if (body === undefined) {
    return getPlan(
      new Request(`http://localhost/api/v1/clusters/${cluster}/plan`, { headers }),
      context,
    );
  }
  headers["content-type"] = "application/json";
  return postEvents(
    new Request(`http://localhost/api/v1/clusters/${cluster}/events`, {
      method: "POST",
      headers,
      body: JSON.stringify(body),
    }),
    context,
  );
}

const submitted = sbatchSubmitted("zz-kind-1-submitted", "zz-kind-1");

beforeAll(async () => {
  await seedDemoLab(databaseUrl, { withHistory: false });
  const admin = await db.user.findUniqueOrThrow({ where: { email: DEMO_USERS.admin.email } });
  adminToken = (await issuePersonalToken(admin.id, { name: LABEL, expiresInDays: 1 })).token;
  await registerCluster(
    {
      name: SLURM_CLUSTER,
      gpuType: "H100",
      executor: "slurm",
      nodes: [{ hostname: "n1", gpus: 8 }],
    },
    admin.id,
  );
});
afterAll(async () => {
  await removeTestCluster(db, SLURM_CLUSTER);
  await db.apiToken.deleteMany({ where: { name: LABEL } });
  await db.$disconnect();
});

describe("a SLURM bridge aimed at a cluster the builtin executor drives", () => {
  const refusal = {
    error: {
      code: "conflict",
      message:
        'Cluster "b300" is driven by the builtin executor, not a SLURM bridge: point the bridge at a cluster registered with allot slurm register.',
    },
  };

  it("is refused its events with a 409, and nothing is written", async () => {
    const response = await call(DEMO_CLUSTER, { body: { events: [submitted] }, kind: "slurm" });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual(refusal);
    expect(await db.executorEvent.count({ where: { eventId: { startsWith: "zz-kind" } } })).toBe(0);
    expect(await db.job.count({ where: { externalId: "zz-kind-1" } })).toBe(0);
  });

  it("is refused the plan with a 409", async () => {
    const response = await call(DEMO_CLUSTER, { kind: "slurm" });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual(refusal);
  });

  it("is told an executor kind Allot does not know with a 422", async () => {
    const response = await call(DEMO_CLUSTER, { kind: "kubernetes" });
    expect(response.status).toBe(422);
  });
});

describe("callers that report no executor kind, or the cluster's own", () => {
  it("an admin without the header still reads a demo cluster's plan", async () => {
    const response = await call(DEMO_CLUSTER);
    expect(response.status).toBe(200);
  });

  it("a SLURM bridge reads a SLURM cluster's plan and posts its events", async () => {
    expect((await call(SLURM_CLUSTER, { kind: "slurm" })).status).toBe(200);
    const response = await call(SLURM_CLUSTER, {
      body: { events: [{ id: "zz-kind-node", kind: "node.draining", node: 0 }] },
      kind: "slurm",
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({
      results: [{ id: "zz-kind-node", outcome: "applied" }],
    });
  });
});
