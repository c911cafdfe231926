// registerCluster on the real database: the cluster, its nodes and the token asked for are one
// write, so a token that cannot be stored leaves no cluster behind.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { getDb } from "./db/app-db";
import { registerCluster } from "./cluster-registration";
import type { RegisterClusterInput } from "../validation/clusters";
import { removeTestCluster } from "../testing/remove-cluster";

const CLUSTER = "zz-register";
const ADMIN_EMAIL = "admin@zz-register.invalid";
const INPUT: RegisterClusterInput = {
  name: CLUSTER,
  gpuType: "H100",
  executor: "slurm",
  nodes: [{ hostname: "n1", gpus: 8 }],
  tokenName: "bridge",
};
let adminId = "";

beforeAll(async () => {
  const admin = await getDb().user.create({
    data: { email: ADMIN_EMAIL, name: "Registering admin", isAdmin: true },
    select: { id: true },
  });
  adminId = admin.id;
});
beforeEach(() => removeTestCluster(getDb(), CLUSTER));
afterAll(async () => {
  // The database is shared with the other test files: leave no cluster or user behind.
  const db = getDb();
  await removeTestCluster(db, CLUSTER);
  await db.user.deleteMany({ where: { email: ADMIN_EMAIL } });
  await db.$disconnect();
});

describe("registerCluster", () => {
  it("leaves no cluster or node behind when its token cannot be stored (admin unknown)", async () => {
    // The token's owner is a foreign key: an admin deleted meanwhile fails the token's insert.
    await expect(registerCluster(INPUT, "no-such-admin")).rejects.toThrow();
    const db = getDb();
    expect(await db.cluster.count({ where: { name: CLUSTER } })).toBe(0);
    expect(
      await db.clusterNode.count({ where: { hostname: "n1", cluster: { name: CLUSTER } } }),
    ).toBe(0);
  });

  it("stores the cluster, its nodes and its token together when all can be", async () => {
    const registered = await registerCluster(INPUT, adminId);
    expect(registered).toMatchObject({
      name: CLUSTER,
      isNew: true,
      nodes: [{ index: 0, hostname: "n1", gpus: 8 }],
      unlisted: [],
      token: expect.stringMatching(/^allot_c_/),
    });
    const tokens = await getDb().apiToken.findMany({
      where: { cluster: { name: CLUSTER } },
      select: { name: true, kind: true, userId: true },
    });
    expect(tokens).toEqual([{ name: "bridge", kind: "cluster", userId: adminId }]);
  });
});
