import { formatHostList, formatNodeList } from "../engine";

/**
 * A run's nodes as the CLI prints them: SLURM's names in squeue's hostlist form on a SLURM
 * cluster ("nodes n[1-2]"), so they match `squeue`; Allot's node numbers otherwise ("nodes 0-1");
 * "node" for one.
 *
 * @example formatRunNodes({ nodes: [0, 1], hosts: ["n1", "n2"] }) // "nodes n[1-2]"
 * @example formatRunNodes({ nodes: [39] }) // "node 39"
 */
export function formatRunNodes(run: { nodes: number[]; hosts?: string[] | null }): string {
  const hosts = run.hosts ?? [];
  const [count, list] =
    hosts.length > 0
      ? [hosts.length, formatHostList(hosts)]
      : [run.nodes.length, formatNodeList(run.nodes, ",")];
  return `${count === 1 ? "node" : "nodes"} ${list}`;
}

/** What an unallocated run (minimum runtime 0) is, as squeue and why both say it. */
export const UNALLOCATED_RUN = "unallocated: on idle GPUs, never protected, uncharged";
