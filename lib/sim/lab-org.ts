import type { RawTreeNode } from "./scenario-schema";
import type { Random } from "./random";

/** A funded project of the lab: where its jobs run and who submits them. */
export type LabProject = {
  program: string;
  name: string;
  /** Budget paths charged by its researchers (the project itself when it has no leaves). */
  researchers: { user: string; budget: string }[];
  /** Clusters it uses, with the part of its work sent to each. */
  clusters: { name: string; part: number }[];
  /** How hungry it is relative to its share (demand / share), around 1. */
  appetite: number;
  effectiveShare: number;
};

const PROGRAMS: { name: string; weight: number; projects: string[] }[] = [
  { name: "llm", weight: 40, projects: ["pretrain", "post-train", "eval", "multilingual"] },
  { name: "vision", weight: 25, projects: ["video", "diffusion", "perception", "3d"] },
  { name: "rl", weight: 20, projects: ["agents", "robotics", "games", "alignment"] },
  { name: "science", weight: 15, projects: ["protein", "climate", "materials"] },
];

/** Projects whose budget is split between their researchers (one leaf each). */
const SPLIT_PROJECTS = new Set(["post-train", "diffusion", "agents", "eval", "protein"]);

/**
 * The lab of DESIGN section 1: 4 programs, 15 funded projects (5 split into researcher leaves),
 * about 150 researchers, seeded weights and cluster affinities.
 *
 * @param clusterNames clusters in decreasing size; every project uses the first, fewer the others
 * @example buildLabOrg(createRandom(1), ["h100", "b200", "b300"]).projects.length // 15
 */
export function buildLabOrg(
  random: Random,
  clusterNames: readonly string[],
): { tree: RawTreeNode; projects: LabProject[] } {
  const projects: LabProject[] = [];
  const programNodes: RawTreeNode[] = [];
  let userNumber = 0;
  const programTotal = PROGRAMS.reduce((sum, program) => sum + program.weight, 0);
  for (const program of PROGRAMS) {
    const weights = program.projects.map(() => random.int(1, 5));
    const weightTotal = weights.reduce((a, b) => a + b, 0);
    const projectNodes: RawTreeNode[] = program.projects.map((name, i) => {
      const weight = weights[i] ?? 1;
      const headcount = random.int(6, 14);
      const users = Array.from(
        { length: headcount },
        () => `r${String(++userNumber).padStart(3, "0")}`,
      );
      const isSplit = SPLIT_PROJECTS.has(name);
      const projectShare = (program.weight / programTotal) * (weight / weightTotal);
      const clusters = clusterNames
        .map((cluster, rank) => ({
          name: cluster,
          part: rank === 0 ? 1 : random.chance(0.6 / rank) ? random.next() : 0,
        }))
        .filter((entry) => entry.part > 0);
      projects.push({
        program: program.name,
        name,
        researchers: users.map((user) => ({
          user,
          budget: isSplit ? `${program.name}/${name}/${user}` : `${program.name}/${name}`,
        })),
        clusters,
        appetite: random.logUniform(0.5, 2),
        effectiveShare: projectShare,
      });
      const children = isSplit
        ? users.map((user) => ({ name: user, weight: random.int(1, 3) }))
        : undefined;
      return { name, weight, ...(children ? { children } : {}) };
    });
    programNodes.push({ name: program.name, weight: program.weight, children: projectNodes });
  }
  return { tree: { name: "lab", children: programNodes }, projects };
}

/** Programs (top-level teams) of the lab with their weights, for baseline caps. */
export function listLabPrograms(): { name: string; weight: number }[] {
  return PROGRAMS.map(({ name, weight }) => ({ name, weight }));
}
