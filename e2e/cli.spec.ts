// The live command line against the production server, as a person runs it: the real `allot`
// bin (node bin/allot.mjs) as a child process, a personal token, the demo lab seeded with two
// days of history, the server in demo mode. Checks what each command prints (tables and
// --json), the refusals and their exit codes, and the config file.
import { execFile } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { expect, test } from "@playwright/test";
import { createPrismaClient } from "../lib/data/db/client";
import { startEmbeddedPostgres, type EmbeddedPostgres } from "../lib/data/db/embedded-postgres";
import { applyMigrations } from "../lib/data/db/migrator";
import { DEMO_USERS, type DemoRole } from "../lib/demo/lab-org";
import { liveTimeFormatter } from "../lib/format";
import { createPersonalToken } from "../lib/demo/seed-org";
import { seedDemoLab } from "../prisma/seed";
import { slurmAccountName } from "../lib/data/slurm-mapping";
import { freePort, waitForHydration } from "./fixtures";
import { startSecondServer, type SecondServer } from "./second-server";

const BIN = path.resolve(import.meta.dirname, "..", "bin", "allot.mjs");
const CONFIG_HOME = mkdtempSync(path.join(tmpdir(), "allot-cli-e2e-"));
const CLUSTER = "h100";

let database: EmbeddedPostgres;
let server: SecondServer;
const tokens: Partial<Record<DemoRole, string>> = {};
let researcherId = "";
let researcherBudget = "";

type Run = { code: number; stdout: string; stderr: string };

/** Runs `allot <argv>` with only the given Allot settings (none from this process). */
async function allot(argv: string[], env: Record<string, string> = {}): Promise<Run> {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of Object.keys(childEnv)) if (name.startsWith("ALLOT_")) delete childEnv[name];
  Object.assign(childEnv, { XDG_CONFIG_HOME: CONFIG_HOME }, env);
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, ...argv], {
      env: childEnv,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code?: number; stdout?: string; stderr?: string };
    return { code: failed.code ?? -1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
  }
}

/** `allot` as a demo user against the test's server. */
function allotAs(role: DemoRole, argv: string[]): Promise<Run> {
  return allot(argv, { ALLOT_SERVER: server.url, ALLOT_TOKEN: tokens[role]! });
}

async function json<T>(run: Promise<Run>): Promise<T> {
  const done = await run;
  expect(done.stderr).toBe("");
  expect(done.code).toBe(0);
  return JSON.parse(done.stdout) as T;
}

type QueueJson = {
  clusters: {
    cluster: { name: string };
    nowSec: number;
    running: { jobId: string; userId: string }[];
    pending: {
      jobId: string;
      userId: string;
      position: number | null;
      sentence: string;
      expectedStartAt?: string | null;
      startNote?: string | null;
    }[];
  }[];
};

// Each test runs the bin several times (a Node start each): more than the default 30 s on a busy machine.
test.describe.configure({ mode: "serial", timeout: 90_000 });

test.beforeAll(async () => {
  test.setTimeout(240_000);
  database = await startEmbeddedPostgres("memory://");
  await applyMigrations(database.url);
  await seedDemoLab(database.url, { historyDays: 2 });
  const db = createPrismaClient(database.url, 2);
  for (const role of ["researcher", "pi", "admin"] as const) {
    const user = await db.user.findUniqueOrThrow({ where: { email: DEMO_USERS[role].email } });
    tokens[role] = await createPersonalToken(db, user.id, `e2e cli ${role}`);
    if (role === "researcher") researcherId = user.id;
  }
  await db.$disconnect();
  server = await startSecondServer({
    env: {
      DATABASE_URL: database.url,
      ALLOT_DEMO: "1",
      NEXTAUTH_SECRET: "e2e-cli-nextauth-secret-5d21-0b7f4e2a",
    },
  });
});

test.afterAll(async () => {
  await server?.stop();
  await database?.stop();
  rmSync(CONFIG_HOME, { recursive: true, force: true });
});

let smallJob = "";
let bigJob = "";

test("submit prints the new job's id and its place; the API says whose it is", async () => {
  const me = await (
    await fetch(`${server.url}/api/v1/me`, {
      headers: { authorization: `Bearer ${tokens.researcher}` },
    })
  ).json();
  expect(me).toMatchObject({ id: researcherId, name: DEMO_USERS.researcher.name });
  researcherBudget = (me as { budgets: { path: string }[] }).budgets[0]!.path;

  const base = ["--cluster", CLUSTER, "-A", researcherBudget, "--min-runtime", "2h"];
  const small = await allotAs("researcher", [
    "submit",
    ...base,
    "-J",
    "cli-small",
    "-G",
    "8",
    "--parsable",
  ]);
  expect(small.stderr).toBe("");
  expect(small.code).toBe(0);
  expect(small.stdout).toMatch(/^c[a-z0-9]{20,}\n$/);
  smallJob = small.stdout.trim();

  // The whole cluster: it waits behind the small job, protected for 2 h.
  const big = await allotAs("researcher", [
    "submit",
    ...base,
    "--name",
    "cli-big",
    "--gpus",
    "1024",
  ]);
  expect(big.code).toBe(0);
  const [, id, place] =
    /^Submitted job (\S+) to h100 \(budget (?:\S+)\): (.+)\n/.exec(big.stdout) ?? [];
  expect(place).toMatch(/^pending, #\d+ in the queue$/);
  bigJob = id!;
});

test("squeue lists both jobs with reasons; --me keeps the owner's; --start the estimates", async () => {
  const queue = await json<QueueJson>(
    allotAs("researcher", ["squeue", "--cluster", CLUSTER, "--json"]),
  );
  const [h100] = queue.clusters;
  const big = h100!.pending.find((job) => job.jobId === bigJob)!;
  expect(big.sentence.length).toBeGreaterThan(20);
  const ids = [...h100!.running, ...h100!.pending].map((job) => job.jobId);
  expect(ids).toEqual(expect.arrayContaining([smallJob, bigJob]));

  const table = await allotAs("researcher", ["squeue", "--cluster", CLUSTER]);
  expect(table.code).toBe(0);
  expect(table.stdout).toMatch(
    /^CLUSTER\s+JOBID\s+NAME\s+USER\s+BUDGET\s+ST\s+GPUS\s+RANK\s+POS\s+TIME\s+START\s+REASON$/m,
  );
  const bigLine = table.stdout.split("\n").find((line) => line.includes(bigJob))!;
  expect(bigLine).toMatch(
    new RegExp(`^h100\\s+${bigJob}\\s+cli-big\\s+Riley Chen\\s+\\S+\\s+PD\\s+1024\\s`),
  );
  expect(bigLine.endsWith(big.sentence)).toBe(true);

  const mine = await json<QueueJson>(allotAs("researcher", ["squeue", "--me", "--json"]));
  const mineIds = mine.clusters.flatMap((c) => [...c.running, ...c.pending]);
  expect(mineIds.every((job) => job.userId === researcherId)).toBe(true);
  expect(mineIds.map((job) => job.jobId)).toEqual(expect.arrayContaining([smallJob, bigJob]));
  const admins = await json<QueueJson>(
    allotAs("admin", ["squeue", "--me", "--cluster", CLUSTER, "--json"]),
  );
  const adminIds = [...admins.clusters[0]!.running, ...admins.clusters[0]!.pending].map(
    (j) => j.jobId,
  );
  expect(adminIds).not.toContain(bigJob);

  // START: the estimate when the server gives one, else "-"; NOTE: startNote, else "-".
  const start = await allotAs("researcher", ["squeue", "--cluster", CLUSTER, "--start", "--me"]);
  const startLine = start.stdout.split("\n").find((line) => line.includes(bigJob))!;
  const when = big.expectedStartAt
    ? liveTimeFormatter(h100!.nowSec)(Date.parse(big.expectedStartAt) / 1000)
    : "-";
  expect(startLine).toMatch(new RegExp(`\\s1024\\s+${big.position}\\s+${when}\\s+`));
  expect(startLine.endsWith(big.startNote ?? "-")).toBe(true);
});

test("sshare prints the tree with live usage, LF and ranks", async () => {
  type ShareJson = {
    clusters: {
      cluster: string;
      nodes: {
        path: string;
        name: string;
        isLeaf: boolean;
        usageGpuSeconds: number;
        levelFairShare: number | "inf" | null;
        rank: number | null;
        fairShareFactor: number | null;
      }[];
    }[];
  };
  const shares = await json<ShareJson>(allotAs("pi", ["sshare", "--cluster", CLUSTER, "--json"]));
  const nodes = shares.clusters[0]!.nodes;
  const leaves = nodes.filter((node) => node.isLeaf);
  expect(leaves.length).toBeGreaterThan(10);
  expect(nodes[0]).toMatchObject({ path: "", levelFairShare: null, rank: null });
  // Two days of history gave the budgets usage: LF is a number, "inf" only where none was used.
  expect(leaves.some((leaf) => leaf.usageGpuSeconds > 0)).toBe(true);
  for (const leaf of leaves) {
    expect(leaf.levelFairShare === "inf").toBe(leaf.usageGpuSeconds === 0);
  }
  const ranks = leaves.map((leaf) => leaf.rank).filter((rank) => rank !== null);
  // Down the page in Fair Tree's order, ranks never fall (tied budgets share one).
  expect(ranks[0]).toBe(1);
  expect(ranks).toEqual([...ranks].sort((a, b) => a! - b!));
  const first = leaves.find((leaf) => leaf.rank === 1)!;
  expect(first.fairShareFactor).toBe(1);

  const table = await allotAs("pi", ["sshare", "--cluster", CLUSTER]);
  expect(table.code).toBe(0);
  expect(table.stdout).toMatch(/^Cluster h100 \(1,024 GPUs\), usage over the last 7 d 0 h, at /);
  expect(table.stdout).toMatch(
    /^BUDGET\s+WEIGHT\s+FRACTION\s+EFF\.SHARE\s+USAGE GPU-h\s+USAGE\/SHARE\s+LF\s+RANK\s+FACTOR$/m,
  );
  const lf = first.levelFairShare === "inf" ? "inf" : first.levelFairShare!.toPrecision(4);
  expect(table.stdout).toMatch(
    new RegExp(`^\\s+${first.name}\\s.*\\s${lf}\\s+1\\s+1\\.0000$`, "m"),
  );
});

test("why explains a waiting job in the server's sentences", async () => {
  type JobJson = {
    job: {
      state: string;
      waitSentence: string;
      budget: { rank: number; rankOf: number };
      queuePosition: number;
    };
  };
  const { job } = await json<JobJson>(allotAs("researcher", ["why", bigJob, "--json"]));
  expect(job.state).toBe("pending");
  const why = await allotAs("pi", ["why", bigJob]);
  expect(why.code).toBe(0);
  const lines = why.stdout.split("\n");
  expect(lines[0]).toBe(
    `Job ${bigJob} "cli-big" on h100, by Riley Chen, budget ${researcherBudget}`,
  );
  expect(lines[2]).toMatch(
    new RegExp(
      `^State: pending, #${job.queuePosition} in the queue, budget rank ${job.budget.rank} of ${job.budget.rankOf}`,
    ),
  );
  expect(lines[3]).toBe(job.waitSentence);
  expect(why.stdout).toMatch(/^Decisions, newest last:$/m);
});

test("budgets prints the tree with weights, fractions and effective shares", async () => {
  type TreeJson = { nodes: { name: string; depth: number; effectiveShare: number }[] };
  const tree = await json<TreeJson>(allotAs("researcher", ["budgets", "--json"]));
  const table = await allotAs("researcher", ["budgets"]);
  expect(table.code).toBe(0);
  expect(table.stdout).toMatch(
    /^BUDGET\s+WEIGHT\s+FRACTION\s+EFF\.SHARE\s+b200 GPU-h\/wk\s+b300 GPU-h\/wk\s+h100 GPU-h\/wk\s+LEADS$/m,
  );
  expect(table.stdout.trimEnd().split("\n")).toHaveLength(tree.nodes.length + 2);
  expect(table.stdout).toMatch(/^lab\s+1\s+-\s+100\.0%\s+86,016\s+14,784\s+172,032\s+Ada Okafor$/m);
});

test("nodes lists each node; an admin drains and resumes one, a researcher may not", async () => {
  type NodesJson = {
    clusters: { cluster: string; nodes: { index: number; health: string; usedGpus: number }[] }[];
  };
  /** `allot nodes ... --cluster b300` as `role`. */
  const nodesOf = (role: DemoRole, ...argv: string[]) =>
    allotAs(role, ["nodes", ...argv, "--cluster", "b300"]);
  const listed = await json<NodesJson>(nodesOf("researcher", "--json"));
  expect(listed.clusters.map((cluster) => cluster.cluster)).toEqual(["b300"]);
  const nodes = listed.clusters[0]!.nodes;
  expect(nodes.map((node) => node.index)).toEqual([...Array(11).keys()]);
  const table = await nodesOf("researcher");
  expect(table.code).toBe(0);
  const used = nodes.reduce((sum, node) => sum + node.usedGpus, 0);
  expect(table.stdout.split("\n")[0]).toMatch(
    new RegExp(
      `^b300: 11 nodes, 88 GPUs: \\d+ healthy, \\d+ draining(, \\d+ down)?; ${used} GPUs in use$`,
    ),
  );
  expect(table.stdout).toMatch(/^NODE\s+NAME\s+HEALTH\s+GPUS\s+USED\s+RUNS\s+SINCE\s+NOTE$/m);

  const target = String(nodes.find((node) => node.health === "healthy")!.index);
  const refused = await nodesOf("researcher", "drain", target, "--reason", "x");
  expect(refused.code).toBe(4);
  expect(refused.stderr).toMatch(/^allot: not allowed: Only admins manage nodes/);
  const noReason = await nodesOf("admin", "drain", target);
  expect(noReason.code).toBe(2);
  expect(noReason.stderr).toMatch(/^allot: nodes drain: --reason is required/);

  const drained = await nodesOf("admin", "drain", target, "--reason", "e2e firmware update");
  expect(drained).toEqual({ code: 0, stdout: `Node ${target} of b300 set draining\n`, stderr: "" });
  const unhealthy = await nodesOf("researcher", "--unhealthy");
  expect(unhealthy.stdout).toMatch(
    new RegExp(`^ +${target} +- +draining .*set by Ada Okafor at .*: e2e firmware update`, "m"),
  );
  const resumed = await nodesOf("admin", "resume", target);
  expect(resumed).toEqual({ code: 0, stdout: `Node ${target} of b300 set healthy\n`, stderr: "" });
  const again = await nodesOf("admin", "resume", target);
  expect(again.code).toBe(0);
  expect(again.stdout).toBe(`b300: Node ${target} is already healthy. Nothing changed.\n`);
  const missing = await nodesOf("admin", "drain", "99", "--reason", "x");
  expect(missing.code).toBe(1);
  expect(missing.stderr).toBe("allot: the server refused: The cluster b300 has no node 99.\n");
});

test("cancel: another person's job is not allowed, the owner's is, an ended one is refused", async () => {
  const notYours = await allotAs("pi", ["cancel", bigJob]);
  expect(notYours.code).toBe(4);
  expect(notYours.stderr).toMatch(/^allot: not allowed: /);

  const cancel = await allotAs("researcher", ["cancel", bigJob]);
  expect(cancel).toEqual({
    code: 0,
    stdout: `Cancelled job ${bigJob} "cli-big" on h100\n`,
    stderr: "",
  });
  const { job } = await json<{ job: { state: string } }>(
    allotAs("researcher", ["why", bigJob, "--json"]),
  );
  expect(job.state).toBe("cancelled");

  const again = await allotAs("researcher", ["cancel", bigJob]);
  expect(again.code).toBe(1);
  expect(again.stderr).toMatch(/^allot: the server refused: /);
  expect((await allotAs("researcher", ["cancel", smallJob])).code).toBe(0);
});

test("bad input is exit 2 naming the flag, also when the server finds it", async () => {
  const base = [
    "submit",
    "--cluster",
    CLUSTER,
    "-A",
    researcherBudget,
    "--name",
    "x",
    "--min-runtime",
    "1h",
  ];
  expect(await allotAs("researcher", [...base, "--gpus", "0"])).toEqual({
    code: 2,
    stdout: "",
    stderr: 'allot: submit: --gpus must be a whole number from 1 to 2147483647, got "0"\n',
  });
  const tooBig = await allotAs("researcher", [...base, "--gpus", "5000"]);
  expect(tooBig.code).toBe(2);
  expect(tooBig.stderr).toMatch(/^allot: submit: --gpus: .+\n$/);
  expect((await allotAs("researcher", [...base, "--gpus", "1", "-A", "nobody"])).stderr).toMatch(
    /^allot: submit: --budget "nobody" is not a budget you may charge; you may charge /,
  );
  expect(await allotAs("researcher", ["why"])).toMatchObject({
    code: 2,
    stderr: "allot: why: missing <job> (see allot why --help)\n",
  });
  const noCluster = await allotAs("researcher", ["squeue", "--cluster", "nope"]);
  expect(noCluster).toMatchObject({
    code: 2,
    stderr: "allot: --cluster nope: no such cluster (clusters: b200, b300, h100)\n",
  });
});

test("a job submitted with sbatch goes by SLURM's id in squeue, why, cancel and the browser", async ({
  page,
}) => {
  // A SLURM cluster as `allot slurm register` makes it, and the bridge's report of an sbatch.
  const admin = { authorization: `Bearer ${tokens.admin}`, "content-type": "application/json" };
  const registered = await fetch(`${server.url}/api/v1/clusters`, {
    method: "POST",
    headers: admin,
    body: JSON.stringify({
      name: "e2e-slurm",
      gpuType: "H100",
      executor: "slurm",
      nodes: [{ hostname: "gpu1", gpus: 8 }],
      tokenName: "e2e bridge",
    }),
  });
  expect(registered.status).toBe(201);
  const { token } = (await registered.json()) as { token: string };
  const sbatch = (externalId: string, name: string) => ({
    id: `e2e-${externalId}`,
    kind: "job.submitted",
    externalId,
    account: slurmAccountName(researcherBudget, "lab"),
    user: "riley",
    name,
    gpus: 8,
    minRuntimeSec: 3600,
    isResumable: true,
    priority: "normal",
  });
  const events = await fetch(`${server.url}/api/v1/clusters/e2e-slurm/events`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${token}`,
      "content-type": "application/json",
      "x-allot-executor": "slurm",
    },
    body: JSON.stringify({ events: [sbatch("4242", "sb-run"), sbatch("4243", "sb-wait")] }),
  });
  expect(events.status).toBe(200);

  // squeue shows SLURM's ids; why and cancel take them, found among every cluster.
  const squeue = await allotAs("researcher", ["squeue", "--cluster", "e2e-slurm"]);
  expect(squeue.stdout).toMatch(/^e2e-slurm +4242 +sb-run +Riley Chen .* R /m);
  expect(squeue.stdout).toMatch(/^e2e-slurm +4243 +sb-wait +Riley Chen .* PD /m);
  const why = await allotAs("pi", ["why", "4243"]);
  expect(why.code).toBe(0);
  expect(why.stdout).toMatch(/^Job c[a-z0-9]+ "sb-wait" on e2e-slurm, by Riley Chen/);
  expect(why.stdout).toMatch(/^State: pending, #1 in the queue/m);
  expect(await allotAs("pi", ["why", "4244"])).toMatchObject({
    code: 1,
    stderr: expect.stringMatching(/^allot: no job has SLURM job id 4244 on .*e2e-slurm/),
  });

  // In the browser: the queue names the SLURM job, and the jobs list finds it by that id.
  await page.goto(`${server.url}/signin`);
  await waitForHydration(page);
  await page.getByRole("button", { name: /Sign in as Riley Chen/ }).click();
  await expect(page.getByText("Signed in as Riley Chen")).toBeVisible();
  await page.goto(`${server.url}/clusters/e2e-slurm`);
  await expect(page.getByRole("row", { name: /sb-wait .*SLURM job 4243/ })).toBeVisible();
  await page.goto(`${server.url}/jobs?q=4242`);
  await expect(page.getByRole("row", { name: /sb-run .*SLURM job 4242/ })).toBeVisible();
  await expect(page.getByRole("row", { name: /sb-wait/ })).toHaveCount(0);

  const cancel = await allotAs("researcher", ["cancel", "4243", "--cluster", "e2e-slurm"]);
  expect(cancel).toMatchObject({
    code: 0,
    stdout: expect.stringMatching(/^Cancelled job c[a-z0-9]+ "sb-wait" on e2e-slurm\n$/),
  });
});

test("a refused or missing token is exit 4, an unreachable server exit 3, each saying what to do", async () => {
  const wrong = await allot(["budgets"], {
    ALLOT_SERVER: server.url,
    ALLOT_TOKEN: "allot_p_not-a-token",
  });
  expect(wrong.code).toBe(4);
  expect(wrong.stderr).toContain("allot: the server refused the token from ALLOT_TOKEN: ");
  expect(wrong.stderr).toContain(`make one on ${server.url}/tokens`);

  const none = await allot(["budgets"], { ALLOT_SERVER: server.url });
  expect(none.code).toBe(4);
  expect(none.stderr).toMatch(/^allot: no token: make one on /);

  const closed = `http://127.0.0.1:${await freePort(3419)}`;
  const down = await allot(["squeue", "--server", closed], { ALLOT_TOKEN: tokens.researcher! });
  expect(down.code).toBe(3);
  expect(down.stderr).toBe(
    `allot: cannot reach the server at ${closed} (connection refused; the URL is from --server). Is it up, and is the URL right? Set it with --server, ALLOT_SERVER or "server" in ${CONFIG_HOME}/allot/config.json\n`,
  );
});

test("the config file gives server and token, and is refused when others may read it", async () => {
  const dir = path.join(CONFIG_HOME, "allot");
  const file = path.join(dir, "config.json");
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, JSON.stringify({ server: server.url, token: tokens.researcher }));
  chmodSync(file, 0o600);
  expect((await allot(["budgets", "--json"])).code).toBe(0);
  chmodSync(file, 0o644);
  expect(await allot(["budgets"])).toEqual({
    code: 2,
    stdout: "",
    stderr: `allot: ${file} holds a token but others may read it (mode 644): run chmod 600 ${file}\n`,
  });
  rmSync(file);
});
