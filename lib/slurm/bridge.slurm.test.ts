// The SLURM bridge end to end (issue #30): a real SLURM, the real bridge as its own process
// and the production server on a real Postgres (lib/testing/slurm-harness.ts). Jobs are
// submitted with sbatch as a user would; what SLURM runs where is read back with squeue and
// sacct, and compared with Allot's runs.
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  killSteps,
  openSlurmHarness,
  run,
  sacct,
  sbatch,
  squeue,
  type SlurmHarness,
} from "../testing/slurm-harness";
import { parseSinfo } from "./slurm-read";

const CLUSTER = "slurm-ci";
const LANGUAGE = "language.lm-pretrain";
const VISION = "vision.video-gen";

let h: SlurmHarness;

beforeAll(async () => {
  // Two leaves of the demo tree, and one account SLURM knows but Allot does not.
  h = await openSlurmHarness(CLUSTER, [LANGUAGE, VISION, "orphan"]);
  expect(h.bridgeLog()).toMatch(/registered slurm-ci: 4 nodes, 32 GPUs/);
}, 240_000);

afterAll(async () => {
  // The bridge's own log, for reading after a failure.
  if (h) writeFileSync(path.join(tmpdir(), "allot-bridge-test.log"), h.bridgeLog());
  await h?.close();
}, 60_000);

describe("the SLURM bridge", () => {
  it("starts sbatch jobs of two budgets in Allot's order on the nodes Allot chose", async () => {
    const ids: string[] = [];
    for (let i = 0; i < 3; i += 1)
      ids.push(await sbatch("-A", VISION, "--gres=gpu:8", "-J", `v${i}`, "--wrap", "sleep 6"));
    for (let i = 0; i < 3; i += 1)
      ids.push(await sbatch("-A", LANGUAGE, "--gres=gpu:8", "-J", `l${i}`, "--wrap", "sleep 6"));
    const running = await h.waitFor("four jobs running", async () => {
      const jobs = await squeue();
      const live = ids.map((id) => jobs.get(id)!).filter((job) => job.state === "RUNNING");
      return live.length === 4 ? live : null;
    });
    for (const job of running) {
      const allot = await h.waitFor(`Allot to confirm ${job.id}`, async () => {
        const found = await h.allotJob(job.id);
        return found?.runs.at(-1)?.startAckedAt ? found : null;
      });
      expect(allot.state).toBe("running");
      expect(job.nodes.sort()).toEqual(await h.hostsOf(allot.runs.at(-1)!.placement));
    }
    // A researcher asks Allot about a job by the id sbatch printed (found among every cluster).
    const first = await h.allotJob(running[0]!.id);
    expect(await h.allot("why", running[0]!.id)).toMatch(
      new RegExp(`^Job ${first!.id} "${first!.name}" on ${CLUSTER}, by `),
    );
    // The two that wait are the two Allot did not start, and their comment says why.
    const waiting = ids.filter((id) => !running.some((job) => job.id === id));
    for (const id of waiting) {
      expect((await h.allotJob(id))?.state).toBe("pending");
      const job = await h.waitFor(`a reason in ${id}'s comment`, async () => {
        const found = (await squeue()).get(id);
        return found?.comment.startsWith("Allot:") ? found : null;
      });
      expect(job.state).toBe("PENDING");
    }
    const table = await run("squeue", ["-o", "%.10i %.9T %k"]);
    expect(table).toMatch(/PENDING Allot: /);
    // Then every job runs to completion, each exactly once, and Allot agrees.
    for (const id of ids) {
      await h.waitFor(
        `${id} completed in Allot`,
        async () => (await h.allotJob(id))?.state === "completed",
      );
      expect((await sacct(id)).map((record) => record.state)).toEqual(["COMPLETED"]);
    }
  }, 120_000);

  it("preempts an unprotected run for a better-ranked budget, requeues it held, resumes it; never a protected one", async () => {
    await h.clearCluster();
    const protectedId = await sbatch(
      "-A",
      VISION,
      "--gres=gpu:8",
      "--time-min=60",
      "-J",
      "vp",
      "--wrap",
      "sleep 40",
    );
    const free: string[] = [];
    for (let i = 0; i < 3; i += 1) {
      free.push(
        await sbatch(
          "-A",
          VISION,
          "--gres=gpu:8",
          "--comment=allot:free",
          "-J",
          `vf${i}`,
          "--wrap",
          "sleep 12",
        ),
      );
    }
    await h.waitFor("the vision jobs running", async () => {
      const jobs = await squeue();
      return [protectedId, ...free].every((id) => jobs.get(id)?.state === "RUNNING");
    });
    const language = await sbatch(
      "-A",
      LANGUAGE,
      "--gres=gpu:8",
      "--time-min=10",
      "-J",
      "lp",
      "--wrap",
      "sleep 4",
    );
    await h.waitFor(
      "the language job running",
      async () => (await squeue()).get(language)?.state === "RUNNING",
    );
    const preempted = await h.waitFor("one free run requeued", async () => {
      for (const id of free)
        if ((await sacct(id)).some((record) => record.state === "REQUEUED")) return id;
      return null;
    });
    const held = (await squeue()).get(preempted)!;
    expect(held.state === "PENDING" || held.state === "RUNNING").toBe(true);
    expect((await h.allotJob(preempted))?.runs[0]?.endReason).toBe("preempted");
    // It resumes once the language job is done, and the protected run was never touched.
    await h.waitFor(
      "the preempted job completed",
      async () => (await h.allotJob(preempted))?.state === "completed",
      90_000,
    );
    const records = (await sacct(preempted)).map((record) => record.state);
    expect(records).toEqual(["REQUEUED", "COMPLETED"]);
    expect((await sacct(protectedId)).map((record) => record.state)).not.toContain("REQUEUED");
    expect((await h.allotJob(protectedId))?.runs.map((r) => r.endReason ?? "open")).not.toContain(
      "preempted",
    );
  }, 150_000);

  it("lets a draining node's protected run finish, then counts an automated drain on both sides", async () => {
    await h.clearCluster();
    const id = await sbatch(
      "-A",
      VISION,
      "--gres=gpu:8",
      "--time-min=60",
      "-J",
      "drain",
      "--wrap",
      "sleep 8",
    );
    const job = await h.waitFor("the job running", async () => {
      const found = (await squeue()).get(id);
      return found?.state === "RUNNING" ? found : null;
    });
    const node = job.nodes[0]!;
    await run("scontrol", ["update", `NodeName=${node}`, "State=DRAIN", "Reason=maintenance test"]);
    const allotNode = () =>
      h.db.clusterNode.findFirstOrThrow({ where: { cluster: { name: CLUSTER }, hostname: node } });
    await h.waitFor(
      "Allot to mark the node draining",
      async () => (await allotNode()).health === "draining",
    );
    expect((await squeue()).get(id)?.state).toBe("RUNNING");
    await h.waitFor(
      "the protected run completed",
      async () => (await h.allotJob(id))?.state === "completed",
    );
    await h.waitFor(
      "an automated drain in Allot",
      async () => (await allotNode()).drainedAt !== null,
    );
    const sinfoNode = parseSinfo(await run("sinfo", ["--json"])).find(
      (entry) => entry.name === node,
    )!;
    expect(sinfoNode.state === "drained" || sinfoNode.flags.includes("DRAIN")).toBe(true);
    await run("scontrol", ["update", `NodeName=${node}`, "State=RESUME"]);
    await h.waitFor(
      "Allot to mark the node healthy",
      async () => (await allotNode()).health === "healthy",
    );
  }, 120_000);

  it("shows finished and failed jobs as completed and failed in Allot, with their runs", async () => {
    await h.clearCluster();
    const ok = await sbatch("-A", LANGUAGE, "--gres=gpu:1", "-J", "ok", "--wrap", "sleep 1");
    const bad = await sbatch(
      "-A",
      LANGUAGE,
      "--gres=gpu:1",
      "-J",
      "bad",
      "--wrap",
      "sleep 1; exit 3",
    );
    const done = await h.waitFor("both ended in Allot", async () => {
      const [a, b] = [await h.allotJob(ok), await h.allotJob(bad)];
      return a?.endedAt && b?.endedAt ? { finished: a, failed: b } : null;
    });
    expect(done.finished).toMatchObject({ state: "completed" });
    expect(done.finished.runs.map((r) => r.endReason)).toEqual(["completed"]);
    expect(done.failed).toMatchObject({ state: "failed" });
    expect(done.failed.runs.map((r) => r.endReason)).toEqual(["failed"]);
  }, 60_000);

  it("keeps bad submissions held with the reason in squeue's comment column", async () => {
    await h.clearCluster();
    const orphan = await sbatch("-A", "orphan", "--gres=gpu:1", "--wrap", "sleep 1");
    const tooBig = await sbatch("-A", LANGUAGE, "--gpus=40", "--wrap", "sleep 1");
    const tooLong = await sbatch(
      "-A",
      LANGUAGE,
      "--gres=gpu:1",
      "--time-min=600",
      "--comment=allot:priority=high",
      "--wrap",
      "sleep 1",
    );
    const reasons: [string, RegExp][] = [
      [orphan, /Allot: not queued: Account "orphan" is not a budget in Allot/],
      [tooBig, /Allot: not queued: It asks for 40 GPUs; slurm-ci has 32/],
      [
        tooLong,
        // The researcher's tag stays in front, so the job keeps it when it is offered again.
        /^allot:priority=high Allot: not queued: Its minimum runtime \(--time-min\) of 10 h is above slurm-ci's maximum of 8 h/,
      ],
    ];
    for (const [id, reason] of reasons) {
      const job = await h.waitFor(`${id}'s reason`, async () => {
        const found = (await squeue()).get(id);
        return found && reason.test(found.comment) ? found : null;
      });
      expect(job).toMatchObject({ state: "PENDING", priority: 0 });
      expect(await h.allotJob(id)).toBeNull();
    }
    const table = await run("squeue", ["-o", "%.10i %.9T %k"]);
    for (const [id] of reasons)
      expect(table).toMatch(new RegExp(`\\b${id} +PENDING (allot:\\S+ )*Allot: not queued`));
    await run("scancel", [orphan, tooBig, tooLong]);
  }, 60_000);

  it("drains in SLURM a node Allot drained, and resumes it when Allot says healthy", async () => {
    await h.clearCluster();
    const target = await h.db.clusterNode.findFirstOrThrow({
      where: { cluster: { name: CLUSTER }, hostname: "n3" },
    });
    const post = (health: string) =>
      fetch(`${h.server().url}/api/v1/clusters/${CLUSTER}/nodes/n3/health`, {
        method: "POST",
        headers: { authorization: `Bearer ${h.adminToken}`, "content-type": "application/json" },
        body: JSON.stringify({ health, reason: "drained in Allot" }),
      });
    expect((await post("draining")).status).toBe(200);
    const slurmNode = async () =>
      parseSinfo(await run("sinfo", ["--json"])).find((node) => node.name === "n3")!;
    const drained = await h.waitFor("SLURM to drain n3", async () => {
      const node = await slurmNode();
      return node.flags.includes("DRAIN") ? node : null;
    });
    expect(drained.reason).toBe("Allot: drained in Allot");
    expect((await post("healthy")).status).toBe(200);
    await h.waitFor("SLURM to resume n3", async () => !(await slurmNode()).flags.includes("DRAIN"));
    expect((await h.db.clusterNode.findUniqueOrThrow({ where: { id: target.id } })).health).toBe(
      "healthy",
    );
  }, 60_000);

  it("loses nothing when Allot restarts while jobs are submitted and running", async () => {
    await h.clearCluster();
    const before: string[] = [];
    for (let i = 0; i < 4; i += 1)
      before.push(await sbatch("-A", LANGUAGE, "--gres=gpu:8", "-J", `a${i}`, "--wrap", "sleep 6"));
    await h.waitFor("the first jobs running", async () => {
      const jobs = await squeue();
      return before.every((id) => jobs.get(id)?.state === "RUNNING");
    });
    await h.stopServer();
    const during: string[] = [];
    for (let i = 0; i < 4; i += 1)
      during.push(await sbatch("-A", VISION, "--gres=gpu:8", "-J", `b${i}`, "--wrap", "sleep 2"));
    await h.waitFor("the bridge to notice", async () => /round failed \(1\)/.test(h.bridgeLog()));
    await h.startServer();
    for (const id of [...before, ...during]) {
      await h.waitFor(
        `${id} completed in Allot`,
        async () => (await h.allotJob(id))?.state === "completed",
        120_000,
      );
      expect((await h.allotJob(id))!.runs.length).toBe(1);
      expect((await sacct(id)).map((record) => record.state)).toEqual(["COMPLETED"]);
    }
  }, 240_000);

  it("loses nothing and starts nothing twice when the bridge is killed and restarted", async () => {
    await h.clearCluster();
    const ids: string[] = [];
    for (let i = 0; i < 24; i += 1) {
      ids.push(
        await sbatch(
          "-A",
          i % 2 ? LANGUAGE : VISION,
          "--gres=gpu:8",
          "-J",
          `r${i}`,
          "--wrap",
          "sleep 2",
        ),
      );
    }
    const firstRelease = h.bridgeLog().length;
    await h.waitFor("a release", async () =>
      h.bridgeLog().slice(firstRelease).includes("released job"),
    );
    await h.stopBridge("SIGKILL");
    await new Promise((resolve) => setTimeout(resolve, 3000));
    h.startBridge();
    for (const id of ids) {
      await h.waitFor(
        `${id} completed in Allot`,
        async () => (await h.allotJob(id))?.state === "completed",
        180_000,
      );
    }
    for (const id of ids) {
      const job = (await h.allotJob(id))!;
      expect(job.runs.length, `Allot runs of ${id}`).toBe(1);
      expect(
        (await sacct(id)).map((record) => record.state),
        `sacct of ${id}`,
      ).toEqual(["COMPLETED"]);
    }
    logFigures(
      ids,
      await Promise.all(
        ids.map(async (id) => ({ id, job: (await h.allotJob(id))!, sacct: (await sacct(id))[0]! })),
      ),
    );
  }, 300_000);

  it("adopts a job that ran before the bridge: its GPUs busy in Allot, charged from its start", async () => {
    await h.clearCluster();
    await h.stopBridge();
    // As before Allot came: job_submit holds it, root releases it, SLURM runs it where it likes.
    const early = await sbatch(
      "-A",
      VISION,
      "--gres=gpu:8",
      "--time-min=60",
      "-J",
      "early",
      "--wrap",
      "sleep 300",
    );
    await run("scontrol", ["release", early]);
    const before = await h.waitFor("the early job running", async () => {
      const found = (await squeue()).get(early);
      return found?.state === "RUNNING" ? found : null;
    });
    const logFrom = h.bridgeLog().length;
    h.startBridge();
    const adopted = await h.waitFor("Allot to adopt it", async () => {
      const job = await h.allotJob(early);
      return job?.state === "running" ? job : null;
    });
    expect(adopted.runs).toHaveLength(1);
    const run0 = adopted.runs[0]!;
    expect(run0.startAckedAt).not.toBeNull();
    expect(await h.hostsOf(run0.placement)).toEqual(before.nodes);
    expect(run0.startedAt.getTime()).toBe(before.startedAtMs);
    expect(run0.protectedUntil.getTime()).toBe(before.startedAtMs! + 3600_000);
    // Logged once Allot has answered, which may be just after the job shows running there.
    await h.waitFor("the adoption logged", async () =>
      h.bridgeLog().slice(logFrom).includes(`adopted running job ${early} `),
    );

    // Four whole-node jobs on four nodes, one of them busy: three start elsewhere, one waits,
    // and no start is tried on the busy node (which would end in a drain).
    const more: string[] = [];
    for (let i = 0; i < 4; i += 1) {
      more.push(await sbatch("-A", LANGUAGE, "--gres=gpu:8", "-J", `m${i}`, "--wrap", "sleep 120"));
    }
    const started = await h.waitFor("three of them running", async () => {
      const jobs = await squeue();
      const running = more.filter((id) => jobs.get(id)?.state === "RUNNING");
      return running.length === 3 ? running.map((id) => jobs.get(id)!) : null;
    });
    expect(started.flatMap((job) => job.nodes)).not.toContain(before.nodes[0]);
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const waiting = more.find((id) => !started.some((job) => job.id === id))!;
    const fourth = (await h.allotJob(waiting))!;
    expect(fourth.state).toBe("pending");
    expect(fourth.runs).toEqual([]);
    expect(h.bridgeLog().slice(logFrom)).not.toMatch(/drained node|did not start/);
  }, 240_000);

  // Last: a node that stopped responding can leave SLURM itself confused for a while.
  it("holds and restarts elsewhere a job SLURM requeued when its node stopped responding", async () => {
    await h.clearCluster();
    const id = await sbatch(
      "-A",
      VISION,
      "--gres=gpu:8",
      "--requeue",
      "-J",
      "lost",
      "--wrap",
      "sleep 60",
    );
    const job = await h.waitFor("the job running", async () => {
      const found = (await squeue()).get(id);
      return found?.state === "RUNNING" ? found : null;
    });
    const host = job.nodes[0]!;
    const config = await run("scontrol", ["show", "config"]);
    const pidFile = /SlurmdPidFile\s*=\s*(\S+)/.exec(config)![1]!.replace("%n", host);
    const slurmd = Number(readFileSync(pidFile, "utf8").trim());
    process.kill(slurmd, "SIGSTOP");
    try {
      const allotNode = () =>
        h.db.clusterNode.findFirstOrThrow({
          where: { cluster: { name: CLUSTER }, hostname: host },
        });
      await h.waitFor(
        `Allot to mark ${host} down`,
        async () => (await allotNode()).health === "down",
        90_000,
      );
      const restarted = await h.waitFor(
        "the job running on another node",
        async () => {
          const found = (await squeue()).get(id);
          return found?.state === "RUNNING" && !found.nodes.includes(host) ? found : null;
        },
        90_000,
      );
      const allot = (await h.allotJob(id))!;
      expect(allot.runs.map((r) => r.endReason)).toEqual(["node_down", null]);
      expect(await h.hostsOf(allot.runs[1]!.placement)).toEqual(restarted.nodes.sort());
    } finally {
      // The job's first run is still alive on the stopped node: end it before the node speaks
      // again, as a rebooted node would (else SLURM miscounts the GPUs of its new node).
      await killSteps(id);
      process.kill(slurmd, "SIGCONT");
    }
    await run("scancel", [id]);
    await h.waitFor(
      `${host} healthy in Allot again`,
      async () => {
        const node = await h.db.clusterNode.findFirstOrThrow({
          where: { cluster: { name: CLUSTER }, hostname: host },
        });
        return node.health === "healthy";
      },
      90_000,
    );
  }, 240_000);
});

/** Medians for the closing note: release -> job.started, and a job's end -> its GPUs reused. */
function logFigures(
  ids: string[],
  rows: {
    id: string;
    job: NonNullable<Awaited<ReturnType<SlurmHarness["allotJob"]>>>;
    sacct: { nodes: string; start: string; end: string };
  }[],
): void {
  const released = new Map<string, number>();
  for (const line of h.bridgeLog().split("\n")) {
    const match = /^(\S+) bridge\[[^\]]+\] released job (\d+)/.exec(line);
    if (match) released.set(match[2]!, Date.parse(match[1]!));
  }
  const toStarted = rows
    .map((row) => (row.job.runs[0]?.startAckedAt?.getTime() ?? NaN) - (released.get(row.id) ?? NaN))
    .filter(Number.isFinite);
  const reuse: number[] = [];
  const byNode = new Map<string, { start: number; end: number }[]>();
  for (const row of rows) {
    const span = { start: Date.parse(`${row.sacct.start}Z`), end: Date.parse(`${row.sacct.end}Z`) };
    const list = byNode.get(row.sacct.nodes) ?? [];
    list.push(span);
    byNode.set(row.sacct.nodes, list);
  }
  for (const spans of byNode.values()) {
    spans.sort((a, b) => a.start - b.start);
    spans.slice(1).forEach((span, i) => reuse.push(span.start - spans[i]!.end));
  }
  const median = (values: number[]) =>
    [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
  console.log(
    `slurm figures over ${ids.length} jobs: release -> job.started median ${median(toStarted)} ms (n=${toStarted.length}); ` +
      `end -> GPUs reused median ${median(reuse) / 1000} s (n=${reuse.length})`,
  );
}
