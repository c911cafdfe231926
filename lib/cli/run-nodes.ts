import { formatHostList, formatNodeList } from "../engine";

/**
 * A run's nodes as the CLI prints them: SLURM's names in squeue's hostlist form on a SLURM
 * cluster ("nodes n[1-2]"), so they match `squeue`; Allot's node numbers otherwise ("nodes 0-1").
 *
 * @example formatRunNodes({ nodes: [0, 1], hosts: ["n1", "n2"] }) // "nodes n[1-2]"
 */
export function formatRunNodes(run: { nodes: number[]; hosts?: string[] | null }): string {
  return run.hosts && run.hosts.length > 0
    ? `nodes ${formatHostList(run.hosts)}`
    : `nodes ${formatNodeList(run.nodes, ",")}`;
}
