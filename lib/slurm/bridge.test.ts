import { describe, expect, it } from "vitest";
import type { Plan } from "../data/executor";
import type { AllotClient } from "./allot-client";
import { createBridge, runBridgeRound } from "./bridge";
import { REFUSED_RETRY_MS, runningPlacement } from "./mirror-jobs";
import type { SlurmRunner } from "./slurm-cli";
import type { SlurmJob } from "./slurm-read";
import { NOW, planOf, slurmJob } from "./test-fixtures";

// Stand-ins for the two outside systems: SLURM's tools and the Allot server.
/** `atMs` as squeue prints a time: in this process's time zone, with no offset. */
function slurmTime(atMs: number): string {
  const at = new Date(atMs);
  const two = (n: number) => String(n).padStart(2, "0");
  const day = `${at.getFullYear()}-${two(at.getMonth() + 1)}-${two(at.getDate())}`;
  return `${day}T${two(at.getHours())}:${two(at.getMinutes())}:${two(at.getSeconds())}`;
}

/** One `squeue` line in SQUEUE_FIELDS' order; a running job started an hour before NOW. */
function squeueLine(id: string, state: string): string {
  const fields = [id, "language.lm-pretrain", "riley", state, "None", "1000", "gres:gpu:8"];
  const started = state === "PENDING" ? "N/A" : slurmTime(NOW - 3600_000);
  return [...fields, "N/A", "1", "N/A", "1", "0", "0", started, "n1", `job ${id}`, ""].join("|");
}

const SINFO = JSON.stringify({
  nodes: [{ name: "n1", gres: "gpu:8", state: "allocated", state_flags: [], reason: "" }],
});

const plan = (extra: Partial<Plan>): Plan => planOf(extra, ["n1"]);

async function runRound(squeue: string, planned: Plan, sinfo = SINFO) {
  const lines: string[] = [];
  const calls: string[] = [];
  const posted: unknown[] = [];
  const slurm: SlurmRunner = (command, args) => {
    calls.push([command, ...args].join(" "));
    if (command === "squeue") return Promise.resolve(`${squeue}\n`);
    if (command === "sinfo") return Promise.resolve(sinfo);
    return Promise.resolve("");
  };
  const allot: AllotClient = {
    server: "http://allot",
    get: <T>() => Promise.resolve(planned as T),
    post: <T>(_path: string, body: unknown) => {
      const { events } = body as { events: { id: string }[] };
      posted.push(...events);
      const results = events.map((event) => ({ id: event.id, outcome: "applied", jobId: "a1" }));
      return Promise.resolve({ results } as T);
    },
  };
  const bridge = createBridge({
    cluster: "c",
    allot,
    slurm,
    log: (line) => lines.push(line),
    nowMs: () => NOW,
  });
  await runBridgeRound(bridge);
  return { lines, calls, posted };
}

const placement = [{ node: 0, gpus: 8 }];

describe("the bridge's log", () => {
  it("logs one line, and cancels once, for a running job a person cancelled in Allot", async () => {
    const { lines, calls } = await runRound(
      squeueLine("2", "RUNNING"),
      plan({
        preemptions: [
          {
            runId: "run-2",
            jobId: "job-2",
            externalId: "2",
            isResumable: true,
            placement,
            endReason: "cancelled",
            reason: null,
            sentence: "",
          },
        ],
        cancelled: [{ jobId: "job-2", externalId: "2" }],
      }),
    );
    expect(lines).toEqual(["cancelled job 2: cancelled by Allot"]);
    expect(calls.filter((call) => call.startsWith("scancel"))).toEqual(["scancel 2"]);
  });

  it("names Allot's job in the line for a job cancelled in SLURM, with no empty field", async () => {
    const { lines } = await runRound(
      squeueLine("6", "CANCELLED"),
      plan({
        running: [
          {
            runId: "run-6",
            jobId: "job-6",
            externalId: "6",
            placement,
            protectedUntil: new Date(NOW).toISOString(),
          },
        ],
      }),
    );
    expect(lines).toEqual(["posted job.cancelled job job-6 (slurm-6-run-6-cancelled): applied"]);
  });

  it("names a node by its SLURM name, as sinfo does, not by Allot's number", async () => {
    const drained = JSON.stringify({
      nodes: [{ name: "n1", gres: "gpu:8", state: "idle", state_flags: ["DRAIN"], reason: "fan" }],
    });
    const { lines } = await runRound("", plan({}), drained);
    expect(lines).toEqual([
      `posted node.draining node n1 (slurm-node-n1-draining-${NOW}): applied`,
    ]);
  });
});

describe("a job the bridge refuses", () => {
  it("is logged once while it waits, though it is tried again every minute", async () => {
    // A pending job with no GPUs: the bridge refuses it before asking Allot.
    const line = squeueLine("9", "PENDING").replace("gres:gpu:8", "N/A");
    const lines: string[] = [];
    let nowMs = NOW;
    const slurm: SlurmRunner = (command) =>
      Promise.resolve(command === "squeue" ? `${line}\n` : command === "sinfo" ? SINFO : "");
    const allot: AllotClient = {
      server: "http://allot",
      get: <T>() => Promise.resolve(plan({}) as T),
      post: <T>() => Promise.resolve({ results: [] } as T),
    };
    const bridge = createBridge({
      cluster: "c",
      allot,
      slurm,
      log: (l) => lines.push(l),
      nowMs: () => nowMs,
    });
    for (let round = 0; round < 3; round++) {
      await runBridgeRound(bridge);
      nowMs += REFUSED_RETRY_MS;
    }
    expect(lines.filter((l) => l.startsWith("refused job 9"))).toEqual([
      "refused job 9 (riley, account language.lm-pretrain): It asks for no GPUs; ask for them with --gres=gpu:N or --gpus=N.",
    ]);
  });
});

describe("a job running before the bridge", () => {
  it("is offered to Allot with where and since when it runs, and its adoption logged", async () => {
    const { lines, posted } = await runRound(squeueLine("3", "RUNNING"), plan({}));
    expect(posted).toEqual([
      {
        id: "slurm-3-submitted",
        kind: "job.submitted",
        externalId: "3",
        account: "language.lm-pretrain",
        user: "riley",
        name: "job 3",
        gpus: 8,
        minRuntimeSec: null,
        isResumable: true,
        priority: "normal",
        running: {
          placement: [{ node: 0, gpus: 8 }],
          startedAt: new Date(NOW - 3600_000).toISOString(),
        },
      },
    ]);
    expect(lines[0]).toBe(
      `adopted running job 3 (riley, account language.lm-pretrain, 8 GPUs on n1 since ${new Date(NOW - 3600_000).toISOString()}) as a1`,
    );
  });

  it("is not offered on a node Allot has not registered; the refusal is logged, never held", async () => {
    const { lines, posted, calls } = await runRound(
      squeueLine("3", "RUNNING").replace("|n1|", "|n7|"),
      plan({}),
    );
    expect(posted).toEqual([]);
    expect(lines).toEqual([
      "refused running job 3 (riley, account language.lm-pretrain): Node n7 is not registered in Allot.",
    ]);
    expect(calls.some((call) => call.startsWith("scontrol hold"))).toBe(false);
  });

  it("takes whole nodes of a --gpus job over several nodes, and refuses an uneven or partial one", () => {
    const planned = planOf({}, ["n1", "n2"]);
    const job = (extra: Partial<SlurmJob>) =>
      slurmJob("4", {
        state: "RUNNING",
        nodes: ["n1", "n2"],
        nodeCount: 2,
        gpusPerNode: null,
        startedAtMs: NOW,
        ...extra,
      });
    expect(runningPlacement(job({ gpus: 16 }), planned)).toEqual({
      placement: [
        { node: 0, gpus: 8 },
        { node: 1, gpus: 8 },
      ],
      startedAt: new Date(NOW).toISOString(),
    });
    // SLURM spreads --gpus=8 over two nodes as it likes (6 + 2): unknown, so not adopted.
    expect(runningPlacement(job({ gpus: 8 }), planned)).toBe(
      "squeue does not show how its 8 GPUs are spread over 2 nodes.",
    );
    expect(runningPlacement(job({ gpus: 3, nodes: ["n2"], nodeCount: 1 }), planned)).toEqual({
      placement: [{ node: 1, gpus: 3 }],
      startedAt: new Date(NOW).toISOString(),
    });
  });

  it("is not offered when Allot could not place it again (two nodes, not whole ones)", async () => {
    const half = squeueLine("5", "RUNNING")
      .replace("gres:gpu:8", "gres:gpu:4")
      .replace("|N/A|1|N/A|", "|N/A|2|N/A|")
      .replace("|n1|", "|n[1-2]|");
    const { lines, posted } = await runRound(half, planOf({}, ["n1", "n2"]));
    expect(posted).toEqual([]);
    expect(lines[0]).toMatch(/^refused running job 5 .*: Jobs over one node take whole nodes/);
  });
});
