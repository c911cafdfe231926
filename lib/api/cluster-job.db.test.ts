// A job submitted with sbatch is found by SLURM's job id on its cluster
// (GET /api/v1/clusters/{name}/jobs/{externalId}), and the live queue carries that id.
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { seedDemoLab } from "../../prisma/seed";
import { POST as postEvents } from "../../app/api/v1/clusters/[name]/events/route";
import { GET as getClusterJob } from "../../app/api/v1/clusters/[name]/jobs/[externalId]/route";
import { registerCluster } from "../data/cluster-registration";
import { createPrismaClient } from "../data/db/client";
import { issuePersonalToken } from "../data/personal-tokens";
import { listJobs } from "../data/job-list";
import { getClusterQueue } from "../data/queue";
import type { SessionUser } from "../data/users";
import { withDefaults } from "../validation/job-list";
import { DEMO_USERS } from "../demo/lab-org";
import { removeTestCluster } from "../testing/remove-cluster";
import { sbatchSubmitted } from "../testing/sbatch-event";

const databaseUrl = inject("databaseUrl");
const db = createPrismaClient(databaseUrl, 2);
const CLUSTER = "zz-ext-slurm";
const LABEL = "zz-ext admin";
let adminToken = "";
let admin: SessionUser;

function getJob(cluster: string, externalId: string): Promise<Response> {
  return getClusterJob(
    new Request(`http://localhost/api/v1/clusters/${cluster}/jobs/${externalId}`, {
      headers: { authorization: `Bearer ${adminToken}` },
    }),
    { params: Promise.resolve({ name: cluster, externalId }) },
  );
}

beforeAll(async () => {
  await seedDemoLab(databaseUrl, { withHistory: false });
  admin = await db.user.findUniqueOrThrow({
    where: { email: DEMO_USERS.admin.email },
    select: { id: true, email: true, name: true, isAdmin: true },
  });
  adminToken = (await issuePersonalToken(admin.id, { name: LABEL, expiresInDays: 1 })).token;
  await registerCluster(
    { name: CLUSTER, gpuType: "H100", executor: "slurm", nodes: [{ hostname: "n1", gpus: 8 }] },
    admin.id,
  );
  const submitted = (externalId: string) =>
    sbatchSubmitted(`zz-ext-${externalId}-submitted`, externalId);

  const response = await postEvents(
    new Request(`http://localhost/api/v1/clusters/${CLUSTER}/events`, {
      method: "POST",
      headers: {
        authorization: `Bearer ${adminToken}`,
        "content-type": "application/json",
        "x-allot-executor": "slurm",
      },
      body: JSON.stringify({ events: [submitted("812"), submitted("813")] }),
    }),
    { params: Promise.resolve({ name: CLUSTER }) },
  );
  expect(response.status).toBe(200);
});

afterAll(async () => {
  await removeTestCluster(db, CLUSTER);
  await db.apiToken.deleteMany({ where: { name: LABEL } });
  await db.$disconnect();
});

describe("a job by SLURM's job id", () => {
  it("is the job Allot mirrored, as GET /api/v1/jobs/{id} gives it", async () => {
    const response = await getJob(CLUSTER, "812");
    expect(response.status).toBe(200);
    const { job } = (await response.json()) as { job: Record<string, unknown> };
    const stored = await db.job.findFirstOrThrow({ where: { externalId: "812" } });
    expect(job).toMatchObject({ id: stored.id, externalId: "812", cluster: CLUSTER, gpus: 8 });
  });

  it("is a 404 naming what is unknown: the job id, or the cluster", async () => {
    const noJob = await getJob(CLUSTER, "814");
    expect(noJob.status).toBe(404);
    expect(await noJob.json()).toEqual({
      error: {
        code: "not_found",
        message: `No job on ${CLUSTER} has the executor's id "814".`,
      },
    });
    const noCluster = await getJob("zz-nowhere", "812");
    expect(noCluster.status).toBe(404);
    expect(((await noCluster.json()) as { error: { message: string } }).error.message).toBe(
      'No cluster is named "zz-nowhere".',
    );
  });

  it("is in the live queue with SLURM's id beside Allot's", async () => {
    // The events' tick started the first on the one node; the second waits.
    const queue = await getClusterQueue(CLUSTER);
    const [running, waiting] = await Promise.all(
      ["812", "813"].map((externalId) => db.job.findFirstOrThrow({ where: { externalId } })),
    );
    expect(queue.running).toEqual([
      expect.objectContaining({ jobId: running!.id, externalId: "812" }),
    ]);
    expect(queue.pending).toEqual([
      expect.objectContaining({ jobId: waiting!.id, externalId: "813" }),
    ]);
  });

  it("is what the jobs list's search finds by that id, besides jobs named with it", async () => {
    const search = async (q: string) =>
      (await listJobs(admin, withDefaults({ q, cluster: CLUSTER }))).jobs.map(
        (job) => job.externalId,
      );
    expect(await search("812")).toEqual(["812"]);
    expect(await search("81")).toEqual([]);
    expect((await search("sbatch")).sort()).toEqual(["812", "813"]);
  });
});
