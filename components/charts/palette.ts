// Colour-blind-safe colours: Okabe & Ito for the two schedulers and marks, Paul Tol's "muted"
// scheme for budget programs (distinguishable with deuteranopia, protanopia and tritanopia).

/** Okabe & Ito's eight colours (Color Universal Design), safe for every colour-vision type. */
export const OKABE_ITO = {
  orange: "#E69F00",
  skyBlue: "#56B4E9",
  bluishGreen: "#009E73",
  yellow: "#F0E442",
  blue: "#0072B2",
  vermillion: "#D55E00",
  reddishPurple: "#CC79A7",
  black: "#000000",
} as const;

/** One colour per scheduler, used in every chart and legend. */
export const SCHEDULER_COLOURS: Record<string, string> = {
  baseline: OKABE_ITO.orange,
  allocation: OKABE_ITO.blue,
};

/** The entitlement mark in charts (neutral, distinct from both schedulers). */
export const ENTITLED_COLOUR = "#555555";
/** The edge of a preempted run (Okabe & Ito vermillion). */
export const PREEMPTED_COLOUR = OKABE_ITO.vermillion;

/** Programs, in order of first appearance; cycles past nine with alternating shades. */
export const PROGRAM_COLOURS = [
  "#332288",
  "#88CCEE",
  "#44AA99",
  "#117733",
  "#999933",
  "#DDCC77",
  "#CC6677",
  "#882255",
  "#AA4499",
];

function mix(hex: string, towards: number, amount: number): string {
  const channels = [1, 3, 5].map((at) => parseInt(hex.slice(at, at + 2), 16));
  const mixed = channels.map((c) => Math.round(c + (towards - c) * amount));
  return `#${mixed.map((c) => c.toString(16).padStart(2, "0")).join("")}`;
}

/**
 * A colour per budget path: its program (first part) picks the hue, its project (second part)
 * a lighter or darker shade of it, so a program's projects read as one family.
 *
 * @example budgetColours(["llm/pretrain", "llm/eval", "vision/video"]) // 2 blues, 1 sky
 */
export function budgetColours(paths: readonly string[]): string[] {
  const programs = new Map<string, number>();
  const projects = new Map<string, Map<string, number>>();
  return paths.map((path) => {
    const [program = path, project = ""] = path.split("/");
    if (!programs.has(program)) programs.set(program, programs.size);
    const programIndex = programs.get(program)!;
    const inProgram = projects.get(program) ?? new Map<string, number>();
    projects.set(program, inProgram);
    if (!inProgram.has(project)) inProgram.set(project, inProgram.size);
    const shade = inProgram.get(project)!;
    const base = PROGRAM_COLOURS[programIndex % PROGRAM_COLOURS.length]!;
    const cycle = Math.floor(programIndex / PROGRAM_COLOURS.length);
    const tinted = cycle % 2 === 1 ? mix(base, 0, 0.35) : base;
    if (shade === 0) return tinted;
    // Alternate lighter and darker steps: 1 -> lighter, 2 -> darker, 3 -> lighter still...
    const step = Math.ceil(shade / 2) * 0.22;
    return shade % 2 === 1
      ? mix(tinted, 255, Math.min(0.7, step))
      : mix(tinted, 0, Math.min(0.6, step));
  });
}

/**
 * The key of {@link budgetColours}: each program once, in order of first appearance, with the
 * colour of its first budget (its projects are shades of it).
 *
 * @example programKey(["llm/pretrain", "llm/eval", "vision/video"], colours) // llm, vision
 */
export function programKey(
  paths: readonly string[],
  colours: readonly string[],
): { program: string; colour: string }[] {
  const key = new Map<string, string>();
  paths.forEach((path, i) => {
    const program = path.split("/")[0] ?? path;
    if (!key.has(program)) key.set(program, colours[i] ?? PROGRAM_COLOURS[0]!);
  });
  return [...key].map(([program, colour]) => ({ program, colour }));
}

/** The three columns of a what-if (Okabe & Ito): what happened, replay now, replay with the draft. */
export const WHAT_IF_COLOURS = {
  happened: "#E69F00",
  current: "#0072B2",
  draft: "#CC79A7",
} as const;
