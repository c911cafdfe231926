// Node lists, the one writer of them: the engine's sentences ("nodes 3-5, 9"), the pages and the
// CLI (through lib/format.ts, like SLURM's "0-2,7"). A cluster whose nodes have an executor's
// names (SLURM's NodeName) is written in SLURM's hostlist form instead ("nodes n[1-2]"), so an
// admin reads the same names as in squeue.

/** How a caller names node `index` (SLURM's NodeName); null or undefined: by its index. */
export type NodeNamer = (index: number) => string | null | undefined;

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

/** Whether `b` follows `a` in a hostlist range: the next number, written the same way. */
function isNextSuffix(a: string, b: string): boolean {
  const isPadded = (digits: string) => digits.length > 1 && digits.startsWith("0");
  const isSameWriting = a.length === b.length || (!isPadded(a) && !isPadded(b));
  return isSameWriting && Number(b) === Number(a) + 1;
}

/**
 * Host names as SLURM writes a hostlist: names that share a prefix and end in a number are
 * bracketed as ranges, the rest listed as they are, all sorted and joined with ",".
 *
 * @example formatHostList(["n2", "n1", "n4"]) // "n[1-2,4]"
 * @example formatHostList(["gpu07", "n1", "login"]) // "gpu07,login,n1"
 */
export function formatHostList(names: readonly string[]): string {
  const byPrefix = new Map<string, string[]>();
  const plain: string[] = [];
  for (const name of new Set(names)) {
    const match = /^(.*?)(\d+)$/.exec(name);
    if (!match) plain.push(name);
    else byPrefix.set(match[1]!, [...(byPrefix.get(match[1]!) ?? []), match[2]!]);
  }
  const parts = plain.map((name) => ({ key: name, text: name }));
  for (const [prefix, suffixes] of byPrefix) {
    suffixes.sort((a, b) => Number(a) - Number(b) || a.length - b.length);
    const ranges: string[] = [];
    for (let i = 0; i < suffixes.length;) {
      let j = i;
      while (j + 1 < suffixes.length && isNextSuffix(suffixes[j]!, suffixes[j + 1]!)) j += 1;
      ranges.push(j > i ? `${suffixes[i]}-${suffixes[j]}` : suffixes[i]!);
      i = j + 1;
    }
    const text =
      suffixes.length === 1 ? `${prefix}${suffixes[0]}` : `${prefix}[${ranges.join(",")}]`;
    parts.push({ key: prefix, text });
  }
  return parts
    .sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    .map((part) => part.text)
    .join(",");
}

/**
 * A node list for a sentence, with its noun: [3, 4, 5, 9] -> "nodes 3-5, 9"; [2] -> "node 2".
 * With `nameOf` naming every node: SLURM's hostlist, [0, 1] -> "nodes n[1-2]".
 *
 * @example formatNodes([0, 1, 2]) // "nodes 0-2"
 * @example formatNodes([0, 1], (index) => `n${index + 1}`) // "nodes n[1-2]"
 */
export function formatNodes(nodes: readonly number[], nameOf?: NodeNamer): string {
  const noun = nodes.length === 1 ? "node" : "nodes";
  const names = nameOf ? nodes.map((index) => nameOf(index)) : [];
  if (nameOf && names.every((name) => name)) {
    return `${noun} ${formatHostList(names as string[])}`;
  }
  return `${noun} ${formatNodeList(nodes)}`;
}
