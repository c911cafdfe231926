import { describe, expect, it } from "vitest";
import type { Plan } from "../data/executor";
import { createBridgeMemory, UNSEEN_MS_TO_END } from "./bridge-memory";
import type { RoundInput } from "./bridge-round";
import { COMMENT_EVERY_MS, reconcile } from "./reconcile";
import { START_TIMEOUT_BUSY_MS, START_TIMEOUT_MS } from "./start-run";
import type { SacctRecord, SlurmJob, SlurmNode } from "./slurm-read";
import { NOW, planOf, slurmJob } from "./test-fixtures";

const node = (name: string, extra: Partial<SlurmNode> = {}): SlurmNode => ({
  name,
  gpus: 8,
  state: "idle",
  flags: [],
  reason: "",
  ...extra,
});

const plan = (extra: Partial<Plan> = {}): Plan => planOf(extra);

const start = (externalId: string, nodes: number[]): Plan["starts"][number] => ({
  runId: `run-${externalId}`,
  jobId: `job-${externalId}`,
  externalId,
  jobName: "x",
  gpus: 8 * nodes.length,
  placement: nodes.map((index) => ({ node: index, gpus: 8 })),
  isAllocated: true,
  protectedUntil: new Date(NOW + 3600_000).toISOString(),
  remainingWorkSec: null,
  reason: null,
  sentence: "Started: language ranks first.",
});

function input(jobs: SlurmJob[], planned: Plan, extra: Partial<RoundInput> = {}): RoundInput {
  return {
    jobs,
    nodes: [node("n1"), node("n2")],
    plan: planned,
    ended: new Map(),
    nowMs: NOW,
    ...extra,
  };
}

describe("starting a decided run", () => {
  it("releases it on the decided nodes once, then confirms it when SLURM runs it there", () => {
    const memory = createBridgeMemory();
    const planned = plan({ starts: [start("7", [1])] });
    const first = reconcile(input([slurmJob("7")], planned), memory);
    expect(first.steps).toEqual([
      {
        kind: "release",
        jobId: "7",
        runId: "run-7",
        hosts: ["n2"],
        comment: "Allot: Started: language ranks first.",
      },
    ]);
    expect(first.events).toEqual([]);
    // Released but not yet running: nothing again, within the start timeout.
    const pending = slurmJob("7", { priority: 1000, reason: "None" });
    expect(reconcile(input([pending], planned, { nowMs: NOW + 1000 }), memory).steps).toEqual([]);
    const running = slurmJob("7", { state: "RUNNING", nodes: ["n2"], priority: 1000 });
    const confirmed = reconcile(input([running], planned, { nowMs: NOW + 2000 }), memory);
    expect(confirmed.events).toEqual([
      { id: "slurm-7-run-7-started", kind: "job.started", runId: "run-7" },
    ]);
    expect(confirmed.steps).toEqual([]);
  });

  it("holds a pending job it did not release for the run, then releases it where decided", () => {
    // SLURM requeued it by itself after its node stopped responding, with no node list: waiting
    // for it to start where Allot decided would wait for nothing.
    const memory = createBridgeMemory();
    const planned = plan({ starts: [start("7", [1])] });
    const requeued = slurmJob("7", { priority: 1000, reason: "BeginTime" });
    expect(reconcile(input([requeued], planned), memory)).toEqual({
      steps: [{ kind: "hold", jobId: "7", why: "pending without Allot's release" }],
      events: [],
      notes: [],
    });
    const held = slurmJob("7", { priority: 0, reason: "JobHeldAdmin" });
    const next = reconcile(input([held], planned, { nowMs: NOW + 1000 }), memory);
    expect(next.steps.map((step) => step.kind)).toEqual(["release"]);
    expect(next.events).toEqual([]);
  });

  it("waits for a job SLURM is already starting (configuring) instead of holding it", () => {
    const memory = createBridgeMemory();
    const planned = plan({ starts: [start("7", [1])] });
    const configuring = slurmJob("7", { state: "CONFIGURING", priority: 1000, nodes: ["n2"] });
    expect(reconcile(input([configuring], planned), memory)).toEqual({
      steps: [],
      events: [],
      notes: [],
    });
  });

  it("puts a run SLURM started elsewhere back, held, and tells Allot", () => {
    const memory = createBridgeMemory();
    const planned = plan({ starts: [start("7", [1])] });
    reconcile(input([slurmJob("7")], planned), memory);
    const running = slurmJob("7", { state: "RUNNING", nodes: ["n1"], priority: 1000 });
    const out = reconcile(input([running], planned, { nowMs: NOW + 1000 }), memory);
    expect(out.steps).toEqual([
      { kind: "requeuehold", jobId: "7", why: "SLURM started it on n1, not on n2" },
    ]);
    expect(out.events).toEqual([
      {
        id: "slurm-7-run-7-requeued",
        kind: "job.requeued",
        runId: "run-7",
        message: "SLURM started it on n1 instead of n2.",
      },
    ]);
  });

  it("stops an earlier run still going elsewhere before the decided start, telling Allot nothing", () => {
    const running = slurmJob("7", { state: "RUNNING", nodes: ["n1"], priority: 1000 });
    const out = reconcile(
      input([running], plan({ starts: [start("7", [1])] })),
      createBridgeMemory(),
    );
    expect(out).toEqual({
      steps: [{ kind: "requeuehold", jobId: "7", why: "an earlier run on n1 is still going" }],
      events: [],
      notes: [],
    });
  });

  it("drains a node where SLURM did not make two starts in a row", () => {
    const memory = createBridgeMemory();
    let nowMs = NOW;
    const round = (runId: string) => {
      const planned = plan({ starts: [{ ...start("7", [1]), runId }] });
      reconcile(input([slurmJob("7")], planned, { nowMs }), memory);
      nowMs += START_TIMEOUT_MS;
      const stuck = slurmJob("7", { priority: 1000, reason: "Resources" });
      return reconcile(input([stuck], planned, { nowMs }), memory);
    };
    expect(round("a").steps.map((step) => step.kind)).toEqual(["hold"]);
    const second = round("b");
    expect(second.steps).toEqual([
      { kind: "hold", jobId: "7", why: "did not start where Allot decided" },
      { kind: "drain", node: "n2", reason: "Allot: SLURM did not start 2 runs placed here" },
    ]);
    expect(second.events.map((event) => event.kind)).toEqual(["node.draining", "job.requeued"]);
  });

  it("drains only the node a job Allot does not know holds, naming it, not the idle ones", () => {
    // A job that ran before the bridge did (or that root released by hand) holds n1; n2 is idle.
    const memory = createBridgeMemory();
    const unknown = slurmJob("5", { state: "RUNNING", nodes: ["n1"], priority: 1000 });
    let nowMs = NOW;
    const round = (runId: string) => {
      const planned = plan({ starts: [{ ...start("7", [0, 1]), runId }] });
      reconcile(input([slurmJob("7"), unknown], planned, { nowMs }), memory);
      nowMs += START_TIMEOUT_MS;
      const stuck = slurmJob("7", { priority: 1000, reason: "Resources" });
      return reconcile(input([stuck, unknown], planned, { nowMs }), memory);
    };
    expect(round("a").steps.map((step) => step.kind)).toEqual(["hold"]);
    const second = round("b");
    expect(second.steps).toEqual([
      { kind: "hold", jobId: "7", why: "did not start where Allot decided" },
      {
        kind: "drain",
        node: "n1",
        reason: "Allot: runs SLURM job 5, which Allot did not start; resume it once that job ends",
      },
    ]);
    expect(second.events.map((event) => event.kind)).toEqual(["node.draining", "job.requeued"]);
  });

  it("still blames the decided nodes when the job Allot does not know runs elsewhere", () => {
    const memory = createBridgeMemory();
    const elsewhere = slurmJob("5", { state: "RUNNING", nodes: ["n9"], priority: 1000 });
    let nowMs = NOW;
    const round = (runId: string) => {
      const planned = plan({ starts: [{ ...start("7", [1]), runId }] });
      reconcile(input([slurmJob("7"), elsewhere], planned, { nowMs }), memory);
      nowMs += START_TIMEOUT_MS;
      const stuck = slurmJob("7", { priority: 1000, reason: "Resources" });
      return reconcile(input([stuck, elsewhere], planned, { nowMs }), memory);
    };
    round("a");
    expect(round("b").steps).toContainEqual({
      kind: "drain",
      node: "n2",
      reason: "Allot: SLURM did not start 2 runs placed here",
    });
  });

  it("waits for a node another job is still leaving, from when it left", () => {
    // A run preempted on n2 leaves only after SLURM's KillWait (30 s by default) and epilog.
    const memory = createBridgeMemory();
    const planned = plan({ starts: [start("7", [1])] });
    const at = (seconds: number) => ({ nowMs: NOW + seconds * 1000 });
    const leaving = slurmJob("6", { state: "COMPLETING", nodes: ["n2"], priority: 1000 });
    const released = slurmJob("7", { priority: 1000, reason: "Resources" });
    reconcile(input([slurmJob("7"), leaving], planned, at(0)), memory);
    expect(reconcile(input([released, leaving], planned, at(30)), memory).steps).toEqual([]);
    // Left at 40 s: SLURM has 30 s from the last round that saw it there.
    expect(reconcile(input([released], planned, at(45)), memory).steps).toEqual([]);
    const running = slurmJob("7", { state: "RUNNING", nodes: ["n2"], priority: 1000 });
    expect(reconcile(input([running], planned, at(50)), memory).events).toEqual([
      { id: "slurm-7-run-7-started", kind: "job.started", runId: "run-7" },
    ]);
  });

  it("gives a node another job never leaves 5 minutes, then counts the failed start", () => {
    const memory = createBridgeMemory();
    const stuck = slurmJob("6", { state: "COMPLETING", nodes: ["n2"], priority: 1000 });
    const released = slurmJob("7", { priority: 1000, reason: "Resources" });
    let nowMs = NOW;
    const round = (runId: string) => {
      const planned = plan({ starts: [{ ...start("7", [1]), runId }] });
      reconcile(input([slurmJob("7"), stuck], planned, { nowMs }), memory);
      const early = reconcile(
        input([released, stuck], planned, { nowMs: nowMs + START_TIMEOUT_MS }),
        memory,
      );
      expect(early.steps).toEqual([]);
      nowMs += START_TIMEOUT_BUSY_MS;
      return reconcile(input([released, stuck], planned, { nowMs }), memory);
    };
    const first = round("a");
    expect(first.steps).toEqual([
      { kind: "hold", jobId: "7", why: "did not start where Allot decided" },
    ]);
    expect(first.events[0]).toMatchObject({
      message:
        "SLURM did not start it on n2 within 5 min, another job leaving the nodes (Resources).",
    });
    // A job stuck completing is what a broken node looks like: the second drains it.
    expect(round("b").steps).toContainEqual({
      kind: "drain",
      node: "n2",
      reason: "Allot: SLURM did not start 2 runs placed here",
    });
  });

  it("does not wait longer for a neighbour Allot keeps running on the node", () => {
    const memory = createBridgeMemory();
    const planned = plan({ starts: [start("7", [1])] });
    const neighbour = slurmJob("5", { state: "RUNNING", nodes: ["n2"], priority: 1000 });
    reconcile(input([slurmJob("7"), neighbour], planned), memory);
    const stuck = slurmJob("7", { priority: 1000, reason: "Resources" });
    const late = { nowMs: NOW + START_TIMEOUT_MS };
    expect(reconcile(input([stuck, neighbour], planned, late), memory).steps).toEqual([
      { kind: "hold", jobId: "7", why: "did not start where Allot decided" },
    ]);
  });

  it("holds a release that did not start within the timeout, and tells Allot", () => {
    const memory = createBridgeMemory();
    const planned = plan({ starts: [start("7", [0])] });
    reconcile(input([slurmJob("7")], planned), memory);
    const stuck = slurmJob("7", { priority: 1000, reason: "Resources" });
    const out = reconcile(input([stuck], planned, { nowMs: NOW + START_TIMEOUT_MS }), memory);
    expect(out.steps).toEqual([
      { kind: "hold", jobId: "7", why: "did not start where Allot decided" },
    ]);
    expect(out.events[0]).toMatchObject({
      kind: "job.requeued",
      message: expect.stringMatching(/within 30 s \(Resources\)/),
    });
  });

  it("confirms the start and the end of a job that ran between two rounds", () => {
    const done = slurmJob("7", { state: "COMPLETED", nodes: ["n1"] });
    const out = reconcile(input([done], plan({ starts: [start("7", [0])] })), createBridgeMemory());
    expect(out.events.map((event) => event.kind)).toEqual(["job.started", "job.finished"]);
  });
});

describe("following a running run", () => {
  const running = (externalId: string): Plan["running"][number] => ({
    runId: `run-${externalId}`,
    jobId: `job-${externalId}`,
    externalId,
    placement: [{ node: 0, gpus: 8 }],
    protectedUntil: new Date(NOW).toISOString(),
  });

  it("reports SLURM's end: completed, failed with the exit code, cancelled by scancel", () => {
    const jobs = [
      slurmJob("1", { state: "COMPLETED" }),
      slurmJob("2", { state: "FAILED", exitCode: 3 }),
      slurmJob("3", { state: "CANCELLED" }),
      slurmJob("4", { state: "TIMEOUT" }),
    ];
    const planned = plan({ running: ["1", "2", "3", "4"].map(running) });
    expect(reconcile(input(jobs, planned), createBridgeMemory()).events).toEqual([
      { id: "slurm-1-run-1-finished", kind: "job.finished", runId: "run-1" },
      { id: "slurm-2-run-2-failed", kind: "job.failed", runId: "run-2", message: "exit code 3" },
      {
        id: "slurm-3-run-3-cancelled",
        kind: "job.cancelled",
        jobId: "job-3",
        message: "scancel on SLURM",
      },
      { id: "slurm-4-run-4-failed", kind: "job.failed", runId: "run-4", message: "timeout" },
    ]);
  });

  it("uses sacct's record of a job squeue forgot", () => {
    const ended = new Map<string, SacctRecord>([
      ["1", { id: "1", state: "COMPLETED", exitCode: 0 }],
    ]);
    const out = reconcile(
      input([], plan({ running: [running("1")] }), { ended }),
      createBridgeMemory(),
    );
    expect(out.events.map((event) => event.kind)).toEqual(["job.finished"]);
  });

  it("ends a run neither squeue nor sacct shows only once it has been missing for a minute", () => {
    const memory = createBridgeMemory();
    const planned = plan({ running: [running("1"), running("2")] });
    const at = (ms: number, jobs: SlurmJob[] = []) =>
      reconcile(input(jobs, planned, { nowMs: NOW + ms }), memory);
    const first = at(0);
    expect(first.events).toEqual([]);
    expect(first.notes).toContain(
      "job 1: neither squeue nor sacct shows it; Allot ends it once it has been missing for 60 s",
    );
    // Rounds every 2 s: still within the minute (slurmdbd may be behind squeue's purge).
    expect(at(2_000).events).toEqual([]);
    // Job 2 is back (one bad read); job 1 is still missing a minute after the first round.
    const later = at(UNSEEN_MS_TO_END, [slurmJob("2", { state: "RUNNING" })]);
    expect(later.events).toEqual([
      {
        id: "slurm-1-run-1-failed",
        kind: "job.failed",
        runId: "run-1",
        message: "SLURM no longer knows the job (neither squeue nor sacct).",
      },
    ]);
    // Job 2's miss was forgotten when it came back: missing again, its minute starts anew.
    expect(at(UNSEEN_MS_TO_END + 2_000).events.map((event) => event.kind)).toEqual(["job.failed"]);
    expect(
      reconcile(input([], plan({ running: [running("2")] }), { nowMs: NOW + 90_000 }), memory)
        .events,
    ).toEqual([]);
  });

  it("holds a job SLURM requeued by itself and ends its run in Allot", () => {
    const requeued = slurmJob("1", { state: "PENDING", priority: 4294901759, reason: "BeginTime" });
    const out = reconcile(
      input([requeued], plan({ running: [running("1")] })),
      createBridgeMemory(),
    );
    expect(out.steps).toEqual([{ kind: "hold", jobId: "1", why: "requeued by SLURM" }]);
    expect(out.events).toEqual([
      {
        id: "slurm-1-run-1-requeued",
        kind: "job.requeued",
        runId: "run-1",
        message: "SLURM requeued it (BeginTime).",
      },
    ]);
  });
});

describe("a node that stopped responding", () => {
  it("holds the job SLURM requeued from it and lets node.down end the run", () => {
    const requeued = slurmJob("1", { state: "PENDING", priority: 5, reason: "BeginTime" });
    const nodes = [node("n1", { state: "down", flags: ["NOT_RESPONDING"] }), node("n2")];
    const running = {
      runId: "run-1",
      jobId: "job-1",
      externalId: "1",
      placement: [{ node: 0, gpus: 8 }],
      protectedUntil: new Date(NOW).toISOString(),
    };
    const out = reconcile(
      input([requeued], plan({ running: [running] }), { nodes }),
      createBridgeMemory(),
    );
    expect(out.steps).toEqual([{ kind: "hold", jobId: "1", why: "requeued by SLURM" }]);
    expect(out.events.map((event) => event.kind)).toEqual(["node.down"]);
  });
});

describe("stopping a run Allot ended", () => {
  const stop = (externalId: string, extra: Partial<Plan["preemptions"][number]> = {}) => ({
    runId: `run-${externalId}`,
    jobId: `job-${externalId}`,
    externalId,
    isResumable: true,
    placement: [{ node: 0, gpus: 8 }],
    endReason: "preempted",
    reason: null,
    sentence: "",
    ...extra,
  });

  it("requeues a resumable job held, once, and confirms the stop when it no longer runs", () => {
    const memory = createBridgeMemory();
    const planned = plan({ preemptions: [stop("5")] });
    const running = slurmJob("5", { state: "RUNNING", nodes: ["n1"], priority: 1000 });
    expect(reconcile(input([running], planned), memory).steps).toEqual([
      { kind: "requeuehold", jobId: "5", why: "preempted by Allot" },
    ]);
    expect(reconcile(input([running], planned), memory).steps).toEqual([]);
    const held = slurmJob("5", { state: "PENDING", priority: 0 });
    expect(reconcile(input([held], planned), memory).events).toEqual([
      { id: "slurm-5-run-5-stopped", kind: "job.stopped", runId: "run-5" },
    ]);
  });

  it("cancels a job that cannot resume, or that a person cancelled in Allot", () => {
    const jobs = [slurmJob("5", { state: "RUNNING" }), slurmJob("6", { state: "RUNNING" })];
    const planned = plan({
      preemptions: [stop("5", { isResumable: false }), stop("6", { endReason: "cancelled" })],
    });
    expect(reconcile(input(jobs, planned), createBridgeMemory()).steps.map((s) => s.kind)).toEqual([
      "cancel",
      "cancel",
    ]);
  });
});

describe("keeping jobs in Allot's hands", () => {
  it("holds a pending job nobody released and stops one running without Allot's start", () => {
    const jobs = [
      slurmJob("8", { priority: 1000 }),
      slurmJob("9", { state: "RUNNING", priority: 1000 }),
    ];
    const planned = plan({
      waiting: [{ jobId: "job-9", externalId: "9", queuePosition: 1, sentence: "waits" }],
    });
    expect(reconcile(input(jobs, planned), createBridgeMemory()).steps).toEqual([
      { kind: "hold", jobId: "8", why: "pending without Allot's release" },
      { kind: "requeuehold", jobId: "9", why: "running without Allot's start" },
    ]);
  });

  it("tells Allot about a waiting job cancelled on SLURM", () => {
    const planned = plan({
      waiting: [{ jobId: "job-9", externalId: "9", queuePosition: 1, sentence: "waits" }],
    });
    const out = reconcile(
      input([slurmJob("9", { state: "CANCELLED" })], planned),
      createBridgeMemory(),
    );
    expect(out.events).toEqual([
      {
        id: "slurm-9-cancelled-job-9",
        kind: "job.cancelled",
        jobId: "job-9",
        message: "SLURM shows it cancelled",
      },
    ]);
  });

  it("tells Allot a waiting job SLURM no longer knows is gone, a minute later", () => {
    const memory = createBridgeMemory();
    const planned = plan({
      waiting: [{ jobId: "job-9", externalId: "9", queuePosition: 1, sentence: "waits" }],
    });
    expect(reconcile(input([], planned), memory).events).toEqual([]);
    expect(reconcile(input([], planned, { nowMs: NOW + 30_000 }), memory).events).toEqual([]);
    expect(reconcile(input([], planned, { nowMs: NOW + 60_000 }), memory).events).toEqual([
      {
        id: "slurm-9-cancelled-job-9",
        kind: "job.cancelled",
        jobId: "job-9",
        message: "SLURM no longer knows the job",
      },
    ]);
  });

  it("writes a waiting job's reason into its comment when it changed, at most every 30 s", () => {
    const memory = createBridgeMemory();
    const planned = plan({
      waiting: [
        { jobId: "job-9", externalId: "9", queuePosition: 3, sentence: "Waits for 8 GPUs." },
      ],
    });
    const text = "Allot: #3 in Allot's queue. Waits for 8 GPUs.";
    expect(reconcile(input([slurmJob("9")], planned), memory).steps).toEqual([
      { kind: "comment", jobId: "9", text },
    ]);
    const changed = plan({ waiting: [{ ...planned.waiting[0]!, queuePosition: 1 }] });
    expect(reconcile(input([slurmJob("9")], changed, { nowMs: NOW + 1000 }), memory).steps).toEqual(
      [],
    );
    expect(
      reconcile(
        input([slurmJob("9")], changed, { nowMs: NOW + COMMENT_EVERY_MS }),
        memory,
      ).steps.map((s) => s.kind),
    ).toEqual(["comment"]);
    expect(
      reconcile(
        input([slurmJob("9", { comment: text })], planned, { nowMs: NOW + 5 * COMMENT_EVERY_MS }),
        memory,
      ).steps,
    ).toEqual([]);
  });
  it("numbers the comment as the plan does: the first job in Allot's queue is #1", () => {
    const planned = plan({
      waiting: [
        { jobId: "job-8", externalId: "8", queuePosition: 1, sentence: "Waits." },
        { jobId: "job-9", externalId: "9", queuePosition: 2, sentence: "Waits." },
      ],
    });
    const jobs = [slurmJob("8"), slurmJob("9")];
    expect(reconcile(input(jobs, planned), createBridgeMemory()).steps).toEqual([
      { kind: "comment", jobId: "8", text: "Allot: #1 in Allot's queue. Waits." },
      { kind: "comment", jobId: "9", text: "Allot: #2 in Allot's queue. Waits." },
    ]);
  });
  it("keeps the researcher's allot: tags in front of the comments it writes", () => {
    const waiting = plan({
      waiting: [{ jobId: "job-9", externalId: "9", queuePosition: 1, sentence: "Waits." }],
    });
    const tagged = slurmJob("9", { comment: "allot:priority=high Allot: not queued: too long." });
    expect(reconcile(input([tagged], waiting), createBridgeMemory()).steps).toEqual([
      {
        kind: "comment",
        jobId: "9",
        text: "allot:priority=high Allot: #1 in Allot's queue. Waits.",
      },
    ]);
    const starting = plan({ starts: [start("9", [1])] });
    expect(
      reconcile(input([slurmJob("9", { comment: "allot:free" })], starting), createBridgeMemory())
        .steps,
    ).toEqual([
      {
        kind: "release",
        jobId: "9",
        runId: "run-9",
        hosts: ["n2"],
        comment: "allot:free Allot: Started: language ranks first.",
      },
    ]);
  });
});

describe("node health both ways", () => {
  it("posts SLURM's drain and down to Allot, and back to healthy", () => {
    const memory = createBridgeMemory();
    const drained = [
      node("n1", { state: "mixed", flags: ["DRAIN"], reason: "bad fan" }),
      node("n2", { state: "down", flags: ["NOT_RESPONDING"] }),
    ];
    const out = reconcile(input([], plan(), { nodes: drained }), memory);
    expect(out.events).toEqual([
      { id: `slurm-node-n1-draining-${NOW}`, kind: "node.draining", node: 0, message: "bad fan" },
      {
        id: `slurm-node-n2-down-${NOW}`,
        kind: "node.down",
        node: 1,
        message: "SLURM shows down (NOT_RESPONDING)",
      },
    ]);
    const allotNow = plan({
      nodes: [
        { index: 0, hostname: "n1", gpus: 8, health: "draining" },
        { index: 1, hostname: "n2", gpus: 8, health: "down" },
      ],
    });
    const back = reconcile(
      input([], allotNow, { nodes: [node("n1"), node("n2")], nowMs: NOW + 1 }),
      memory,
    );
    expect(back.events.map((event) => [event.kind, (event as { node: number }).node])).toEqual([
      ["node.healthy", 0],
      ["node.healthy", 1],
    ]);
    expect(back.steps).toEqual([]);
  });

  it("takes a NOT_RESPONDING flag alone for nothing: SLURM sets DOWN when it means it", () => {
    const blip = [node("n1", { state: "idle", flags: ["NOT_RESPONDING"] }), node("n2")];
    expect(reconcile(input([], plan(), { nodes: blip }), createBridgeMemory()).events).toEqual([]);
  });

  it("drains in SLURM what Allot drained, and resumes it when Allot says healthy", () => {
    const memory = createBridgeMemory();
    const draining = plan({ nodes: [{ index: 0, hostname: "n1", gpus: 8, health: "draining" }] });
    expect(reconcile(input([], draining, { nodes: [node("n1")] }), memory).steps).toEqual([
      { kind: "drain", node: "n1", reason: "Allot: drained in Allot" },
    ]);
    const slurmDrained = [
      node("n1", { flags: ["DRAIN"], state: "idle", reason: "Allot: drained in Allot" }),
    ];
    expect(reconcile(input([], draining, { nodes: slurmDrained }), memory)).toMatchObject({
      steps: [],
      events: [],
    });
    const healthy = plan({ nodes: [{ index: 0, hostname: "n1", gpus: 8, health: "healthy" }] });
    expect(reconcile(input([], healthy, { nodes: slurmDrained }), memory).steps).toEqual([
      { kind: "resume", node: "n1", why: "healthy again in Allot" },
    ]);
  });
});

it("is deterministic: the same input and memory give the same round", () => {
  const planned = plan({
    starts: [start("7", [0, 1])],
    waiting: [{ jobId: "j", externalId: "9", queuePosition: 1, sentence: "w" }],
  });
  const jobs = [
    slurmJob("7", { gpus: 16, nodeCount: 2 }),
    slurmJob("9"),
    slurmJob("10", { priority: 5 }),
  ];
  const a = reconcile(input(jobs, planned), createBridgeMemory());
  const b = reconcile(input(jobs, planned), createBridgeMemory());
  expect(a).toEqual(b);
  expect(a.steps[0]).toMatchObject({ kind: "release", hosts: ["n1", "n2"] });
});
