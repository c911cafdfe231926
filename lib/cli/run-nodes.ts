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
  const isNamed = run.hosts && run.hosts.length > 0;
  const count = isNamed ? run.hosts!.length : run.nodes.length;
  const list = isNamed ? formatHostList(run.hosts!) : formatNodeList(run.nodes, ",");
  return `${count === 1 ? "node" : "nodes"} ${list}`;
}
