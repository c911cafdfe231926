import type { LabOrg, OrgNode } from "./lab-org";
import type { Random } from "../sim/random";
import type { RawTreeNode } from "../sim/scenario-schema";

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

function toRawTree(node: OrgNode): RawTreeNode {
  return node.children.length === 0
    ? { name: node.name, weight: node.weight }
    : { name: node.name, weight: node.weight, children: node.children.map(toRawTree) };
}

/** Every member of the leaves below `node` (or of `node` itself), with the leaf's path. */
function researchersOf(node: OrgNode, path: string): LabProject["researchers"] {
  if (node.children.length === 0) return node.members.map((user) => ({ user, budget: path }));
  return node.children.flatMap((child) => researchersOf(child, `${path}/${child.name}`));
}

const sumOf = (nodes: readonly OrgNode[]) => nodes.reduce((sum, node) => sum + node.weight, 0);

/**
 * The workload's view of the demo lab (lib/demo/lab-org.ts, the organisation the database seed
 * writes): its tree as a scenario tree, and per funded project (a program's child) the people
 * charging its leaves (users are emails), seeded cluster affinities and appetite.
 *
 * @param clusterNames clusters in decreasing size; every project uses the first, fewer the others
 * @example listLabProjects(buildLabOrg(DEMO_ORG_SEED), createRandom(1), ["h100", "b200", "b300"]).projects.length // 15
 */
export function listLabProjects(
  org: LabOrg,
  random: Random,
  clusterNames: readonly string[],
): { tree: RawTreeNode; projects: LabProject[] } {
  const programs = org.root.children;
  const programTotal = sumOf(programs);
  const projects: LabProject[] = [];
  for (const program of programs) {
    const projectTotal = sumOf(program.children);
    for (const project of program.children) {
      const projectShare =
        programTotal > 0 && projectTotal > 0
          ? (program.weight / programTotal) * (project.weight / projectTotal)
          : 0;
      const clusters = clusterNames
        .map((cluster, rank) => ({
          name: cluster,
          part: rank === 0 ? 1 : random.chance(0.6 / rank) ? random.next() : 0,
        }))
        .filter((entry) => entry.part > 0);
      projects.push({
        program: program.name,
        name: project.name,
        researchers: researchersOf(project, `${program.name}/${project.name}`),
        clusters,
        appetite: random.logUniform(0.5, 2),
        effectiveShare: projectShare,
      });
    }
  }
  return { tree: toRawTree(org.root), projects };
}

/** Programs (top-level teams) of the lab with their weights, for baseline caps. */
export function listLabPrograms(org: LabOrg): { name: string; weight: number }[] {
  return org.root.children.map(({ name, weight }) => ({ name, weight }));
}
