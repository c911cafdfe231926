/**
 * The demo lab of docs/concepts.md: three clusters, four programs, fifteen funded
 * projects and about 150 researchers, generated from a seed so that the database
 * seed, the tests and the workload generator describe the same lab.
 */
import { createRandom, type Random } from "../sim/random";

export type OrgUser = { email: string; name: string; isAdmin: boolean; isDemo: boolean };

export type OrgNode = {
  name: string;
  weight: number;
  /** Emails of the node's leads. */
  leads: string[];
  /** Emails of members (leaves only). */
  members: string[];
  children: OrgNode[];
};

export type OrgCluster = { name: string; gpuType: string; nodes: number; gpusPerNode: number };

export type LabOrg = { users: OrgUser[]; root: OrgNode; clusters: OrgCluster[] };

export const DEMO_DOMAIN = "allot.example";

/** The seed of the demo lab the database seed writes and the lab workload submits from. */
export const DEMO_ORG_SEED = 2026;

/** One demo user per role; they sign in without a password in demo mode only. */
export const DEMO_USERS = {
  admin: { email: `ada@${DEMO_DOMAIN}`, name: "Ada Okafor" },
  programLead: { email: `priya@${DEMO_DOMAIN}`, name: "Priya Raman" },
  pi: { email: `pat@${DEMO_DOMAIN}`, name: "Pat Lindqvist" },
  researcher: { email: `riley@${DEMO_DOMAIN}`, name: "Riley Chen" },
} as const;

export type DemoRole = keyof typeof DEMO_USERS;

export const LAB_CLUSTERS: OrgCluster[] = [
  { name: "h100", gpuType: "H100", nodes: 128, gpusPerNode: 8 },
  { name: "b200", gpuType: "B200", nodes: 64, gpusPerNode: 8 },
  { name: "b300", gpuType: "B300", nodes: 11, gpusPerNode: 8 },
];

type ProjectPlan = {
  name: string;
  weight: number;
  researchers: number;
  hasPersonalLeaves: boolean;
};
type ProgramPlan = { name: string; weight: number; projects: ProjectPlan[] };

/** Programs and their funded projects; weights are the lab's split. */
export const LAB_PROGRAMS: ProgramPlan[] = [
  {
    name: "language",
    weight: 40,
    projects: [
      { name: "lm-pretrain", weight: 5, researchers: 14, hasPersonalLeaves: false },
      { name: "lm-posttrain", weight: 3, researchers: 12, hasPersonalLeaves: true },
      { name: "lm-eval", weight: 1, researchers: 8, hasPersonalLeaves: false },
      { name: "multilingual", weight: 2, researchers: 9, hasPersonalLeaves: true },
    ],
  },
  {
    name: "vision",
    weight: 25,
    projects: [
      { name: "video-gen", weight: 3, researchers: 11, hasPersonalLeaves: false },
      { name: "perception", weight: 2, researchers: 10, hasPersonalLeaves: true },
      { name: "multimodal", weight: 3, researchers: 10, hasPersonalLeaves: false },
      { name: "vision-rl", weight: 1, researchers: 8, hasPersonalLeaves: false },
    ],
  },
  {
    name: "robotics",
    weight: 20,
    projects: [
      { name: "manipulation", weight: 2, researchers: 10, hasPersonalLeaves: false },
      { name: "locomotion", weight: 1, researchers: 8, hasPersonalLeaves: true },
      { name: "sim2real", weight: 1, researchers: 9, hasPersonalLeaves: false },
      { name: "embodied-agents", weight: 2, researchers: 10, hasPersonalLeaves: false },
    ],
  },
  {
    name: "science",
    weight: 15,
    projects: [
      { name: "protein-design", weight: 2, researchers: 11, hasPersonalLeaves: false },
      { name: "climate", weight: 1, researchers: 8, hasPersonalLeaves: false },
      { name: "materials", weight: 1, researchers: 8, hasPersonalLeaves: true },
    ],
  },
];

const FIRST_NAMES = [
  "Alex",
  "Bea",
  "Carlos",
  "Dana",
  "Eli",
  "Fatima",
  "Gus",
  "Hana",
  "Ivan",
  "Jun",
  "Kira",
  "Leo",
  "Maya",
  "Nico",
  "Olu",
  "Paula",
  "Quinn",
  "Rosa",
  "Sam",
  "Tariq",
  "Uma",
  "Vera",
  "Wen",
  "Xavi",
  "Yara",
  "Zoe",
  "Amir",
  "Bo",
  "Chiara",
  "Dmitri",
  "Esme",
  "Femi",
  "Greta",
  "Hiro",
  "Ines",
  "Jonas",
];
const LAST_NAMES = [
  "Abe",
  "Banerjee",
  "Costa",
  "Diallo",
  "Eriksen",
  "Fischer",
  "Garcia",
  "Huang",
  "Ivanova",
  "Jensen",
  "Kowalski",
  "Larsen",
  "Mbeki",
  "Nakamura",
  "Ortiz",
  "Petrov",
  "Quispe",
  "Rossi",
  "Silva",
  "Tanaka",
  "Ueda",
  "Varga",
  "Weber",
  "Xu",
  "Yilmaz",
  "Zhou",
  "Moreau",
  "Haddad",
  "Novak",
  "Osei",
];

function makePeople(random: Random, count: number, taken: Set<string>): OrgUser[] {
  const people: OrgUser[] = [];
  while (people.length < count) {
    const first = random.pick(FIRST_NAMES);
    const last = random.pick(LAST_NAMES);
    const handle = `${first}.${last}`.toLowerCase();
    if (taken.has(handle)) continue;
    taken.add(handle);
    people.push({
      email: `${handle}@${DEMO_DOMAIN}`,
      name: `${first} ${last}`,
      isAdmin: false,
      isDemo: false,
    });
  }
  return people;
}

function leaf(name: string, weight: number, members: string[], leads: string[] = []): OrgNode {
  return { name, weight, leads, members, children: [] };
}

/**
 * Builds the demo lab from a seed: same seed, same lab. The demo users take fixed
 * places: Priya leads `language`, Pat leads `language/lm-pretrain`, Riley is a member
 * of `lm-pretrain` and has a personal leaf in `lm-posttrain`.
 *
 * @example buildLabOrg(2026).root.children.length // 4 programs
 */
export function buildLabOrg(seed: number): LabOrg {
  const random = createRandom(seed);
  const taken = new Set<string>(["ada.okafor", "priya.raman", "pat.lindqvist", "riley.chen"]);
  const demo = (user: { email: string; name: string }, isAdmin = false): OrgUser => ({
    ...user,
    isAdmin,
    isDemo: true,
  });
  const users: OrgUser[] = [
    demo(DEMO_USERS.admin, true),
    demo(DEMO_USERS.programLead),
    demo(DEMO_USERS.pi),
    demo(DEMO_USERS.researcher),
  ];
  const programs: OrgNode[] = LAB_PROGRAMS.map((program, programIndex) => {
    const [programLead] =
      programIndex === 0 ? [demo(DEMO_USERS.programLead)] : makePeople(random, 1, taken);
    if (programIndex !== 0 && programLead) users.push(programLead);
    const projects = program.projects.map((project, projectIndex) => {
      const isDemoProject = programIndex === 0 && projectIndex === 0;
      const [pi] = isDemoProject ? [demo(DEMO_USERS.pi)] : makePeople(random, 1, taken);
      if (!isDemoProject && pi) users.push(pi);
      const researchers = makePeople(random, project.researchers - 1, taken);
      users.push(...researchers);
      const emails = researchers.map((person) => person.email);
      if (isDemoProject || (programIndex === 0 && projectIndex === 1))
        emails.unshift(DEMO_USERS.researcher.email);
      const piEmail = pi?.email ?? "";
      if (!project.hasPersonalLeaves) {
        return leaf(project.name, project.weight, [piEmail, ...emails], [piEmail]);
      }
      const personal = [piEmail, ...emails].map((email) =>
        leaf(email.split("@")[0] ?? email, random.int(1, 3), [email]),
      );
      return {
        name: project.name,
        weight: project.weight,
        leads: [piEmail],
        members: [],
        children: personal,
      };
    });
    return {
      name: program.name,
      weight: program.weight,
      leads: [programLead?.email ?? ""],
      members: [],
      children: projects,
    };
  });
  const root: OrgNode = {
    name: "lab",
    weight: 1,
    leads: [DEMO_USERS.admin.email],
    members: [],
    children: programs,
  };
  return { users, root, clusters: LAB_CLUSTERS };
}
