// Node health both ways between SLURM and Allot, by change (docs/slurm.md, "What the bridge does").
import type { PlanNode } from "../data/executor";
import type { BridgeMemory, Health } from "./bridge-memory";
import type { RoundInput, RoundOutput } from "./bridge-round";
import type { SlurmNode } from "./slurm-read";

/** SLURM's view of a node's health: DOWN -> down; DRAIN -> draining; else healthy. */
export function slurmHealthOf(node: SlurmNode): Health {
  // SLURM sets DOWN itself after SlurmdTimeout; a NOT_RESPONDING flag alone ("idle*") comes
  // and goes (a resumed node shows it for a moment) and changes nothing.
  if (node.state.includes("down")) return "down";
  if (node.flags.includes("DRAIN") || node.state.startsWith("drain")) return "draining";
  return "healthy";
}

/** The start of the reason SLURM shows for a drain Allot asked for. */
export const ALLOT_DRAIN_PREFIX = "Allot:";

/**
 * Node health both ways, by change: a change SLURM shows goes to Allot (node.draining,
 * node.down, node.healthy), a change Allot made goes to SLURM (State=DRAIN with a reason that
 * starts "Allot:", or State=RESUME). At the first look, the unhealthy side wins.
 */
export function mirrorNodes(input: RoundInput, memory: BridgeMemory, out: RoundOutput): void {
  const allotByHost = new Map<string | null, PlanNode>(
    input.plan.nodes.map((node) => [node.hostname, node]),
  );
  for (const node of input.nodes) {
    const allot = allotByHost.get(node.name);
    if (!allot) continue;
    const slurm = slurmHealthOf(node);
    const allotHealth = allot.health as Health;
    const last = memory.nodes.get(node.name);
    memory.nodes.set(node.name, { slurm, allot: allotHealth });
    if (slurm === allotHealth) continue;
    const slurmChanged = last === undefined ? slurm !== "healthy" : last.slurm !== slurm;
    const allotChanged =
      last === undefined ? allotHealth !== "healthy" : last.allot !== allotHealth;
    if (slurmChanged) {
      out.events.push({
        id: `slurm-node-${node.name}-${slurm}-${input.nowMs}`,
        kind: `node.${slurm}`,
        node: allot.index,
        message:
          node.reason ||
          `SLURM shows ${node.state}${node.flags.length ? ` (${node.flags.join(",")})` : ""}`,
      });
      memory.nodes.set(node.name, { slurm, allot: slurm });
    } else if (allotChanged && allotHealth !== "healthy" && slurm === "healthy") {
      // Remembered as done, so the next round does not take SLURM's drain for news.
      memory.nodes.set(node.name, { slurm: "draining", allot: allotHealth });
      out.steps.push({
        kind: "drain",
        node: node.name,
        reason: `${ALLOT_DRAIN_PREFIX} ${allotHealth === "down" ? "down" : "drained"} in Allot`,
      });
    } else if (allotChanged && allotHealth === "healthy") {
      // The newer word wins: an admin who set the node healthy in Allot resumes it in SLURM.
      memory.nodes.set(node.name, { slurm: "healthy", allot: "healthy" });
      out.steps.push({ kind: "resume", node: node.name, why: "healthy again in Allot" });
    }
  }
}
