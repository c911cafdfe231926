// What a confirmation says will happen (issue #35), as plain sentences. Pure: times come
// written by the caller's formatter (lib/format.ts liveTimeFormatter), spans by formatSpan.
import { formatSpan } from "../format";

export type CancelFacts = {
  name: string;
  gpus: number;
  state: string;
  /** Start of the open run (running jobs). */
  runningSinceSec: number | null;
  /** End of the open run's protected period (running jobs). */
  protectedUntilSec: number | null;
  queuePosition: number | null;
  nowSec: number;
};

function gpuCount(gpus: number): string {
  return `${gpus} ${gpus === 1 ? "GPU" : "GPUs"}`;
}

/**
 * The question and the consequence of cancelling a job.
 *
 * @example cancelConsequence({ name: "llm-70b", gpus: 64, state: "running", runningSinceSec: 0,
 *   protectedUntilSec: 14_400, queuePosition: null, nowSec: 7_800 }, t)
 * // { question: "Cancel job llm-70b (64 GPUs, running 2 h 10 min, protected until 04:00 UTC)?",
 * //   consequence: "Its run ends now, protected or not, and its GPUs go to the next job in the queue." }
 */
export function cancelConsequence(
  facts: CancelFacts,
  time: (sec: number) => string,
): { question: string; consequence: string } {
  const parts = [gpuCount(facts.gpus)];
  if (facts.state === "running" && facts.runningSinceSec !== null) {
    parts.push(`running ${formatSpan(facts.nowSec - facts.runningSinceSec)}`);
    if (facts.protectedUntilSec !== null && facts.protectedUntilSec > facts.nowSec) {
      parts.push(`protected until ${time(facts.protectedUntilSec)}`);
    }
  } else if (facts.state === "pending") {
    parts.push(facts.queuePosition !== null ? `#${facts.queuePosition} in the queue` : "waiting");
  }
  const question = `Cancel job ${facts.name} (${parts.join(", ")})?`;
  if (facts.state === "running") {
    const protectedNote =
      facts.protectedUntilSec !== null && facts.protectedUntilSec > facts.nowSec
        ? ", protected or not,"
        : "";
    return {
      question,
      consequence: `Its run ends now${protectedNote} and its GPUs go to the next job in the queue.`,
    };
  }
  return { question, consequence: "It leaves the queue and never starts." };
}

export type DrainRun = { jobId: string; jobName: string; gpus: number; protectedUntilSec: number };

/**
 * What draining a node does to its runs: those past their protected period are preempted at
 * once, the others when it ends; the node is empty when the last one ends.
 */
export function drainConsequence(
  runs: readonly DrainRun[],
  nowSec: number,
  time: (sec: number) => string,
): { preemptedNow: DrainRun[]; protectedRuns: DrainRun[]; summary: string } {
  const preemptedNow = runs.filter((run) => run.protectedUntilSec <= nowSec);
  const protectedRuns = runs.filter((run) => run.protectedUntilSec > nowSec);
  if (runs.length === 0) {
    return { preemptedNow, protectedRuns, summary: "No run is on it: it is empty at once." };
  }
  const lastSec = Math.max(...protectedRuns.map((run) => run.protectedUntilSec));
  const summary =
    protectedRuns.length === 0
      ? `${runs.length === 1 ? "Its run is" : `All ${runs.length} of its runs are`} preempted at once, and it takes no new runs.`
      : `It takes no new runs and is empty by ${time(lastSec)}, when its last protected run ends.`;
  return { preemptedNow, protectedRuns, summary };
}

type SplitChild = { id?: string | undefined; name: string; weight: number };

/**
 * The weight changes of adopting a split, one sentence each, for the confirmation: changed
 * weights and names, added and removed budgets. Unchanged children are left out.
 *
 * @example splitChanges([{ id: "a", name: "a", weight: 1 }], [{ id: "a", name: "a", weight: 4 }])
 * // ["a: weight 1 → 4"]
 */
export function splitChanges(current: readonly SplitChild[], proposed: readonly SplitChild[]) {
  const changes: string[] = [];
  for (const child of proposed) {
    const before = child.id === undefined ? undefined : current.find((c) => c.id === child.id);
    if (!before) {
      changes.push(`${child.name}: added with weight ${child.weight}`);
      continue;
    }
    const renamed = before.name !== child.name ? ` (renamed to ${child.name})` : "";
    if (before.weight !== child.weight || renamed) {
      changes.push(`${before.name}${renamed}: weight ${before.weight} → ${child.weight}`);
    }
  }
  for (const child of current) {
    if (!proposed.some((row) => row.id === child.id)) {
      changes.push(`${child.name}: removed, with everything below it`);
    }
  }
  return changes;
}
