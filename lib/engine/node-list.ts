// Node indexes as ranges, the one writer of node lists: the engine's sentences ("nodes 3-5, 9"),
// the pages and the CLI (through lib/format.ts, like SLURM's "0-2,7").

/**
 * Node indexes as sorted ranges joined with `separator`.
 *
 * @example formatNodeList([3, 4, 5, 9]) // "3-5, 9"
 * @example formatNodeList([7, 0, 1, 2], ",") // "0-2,7"
 */
export function formatNodeList(nodes: readonly number[], separator = ", "): string {
  const sorted = [...nodes].sort((a, b) => a - b);
  const ranges: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j += 1;
    ranges.push(j > i ? `${sorted[i]}-${sorted[j]}` : String(sorted[i]));
    i = j + 1;
  }
  return ranges.join(separator);
}

/**
 * A node list for a sentence, with its noun: [3, 4, 5, 9] -> "nodes 3-5, 9"; [2] -> "node 2".
 *
 * @example formatNodes([0, 1, 2]) // "nodes 0-2"
 */
export function formatNodes(nodes: readonly number[]): string {
  return `${nodes.length === 1 ? "node" : "nodes"} ${formatNodeList(nodes)}`;
}
