// The repository's documents the app serves under /docs (the Help page and links from pages):
// only these, by file name, never a path a caller makes up.

/** File name -> title, in the order the Help page lists them. */
export const LINKED_DOCS: Readonly<Record<string, string>> = {
  "concepts.md": "Concepts",
  "ranking.md": "How budgets are ranked",
  "contract.md": "The scheduling contract",
  "fulfilment.md": "Entitled and received GPU-hours",
  "simulations.md": "Simulations: allocation vs baseline",
  "simulator.md": "The simulator's files",
  "cli.md": "The command line",
  "api.md": "The HTTP API",
  "executor.md": "Connecting an executor",
  "slurm.md": "Running beside SLURM",
  "deploy.md": "Deploying Allot",
  "operations.md": "Operations: metrics and logs",
  "security.md": "Security: who may do what",
};

/**
 * The served document a name asks for: the file name itself, or the same without ".md"
 * (`/docs/concepts`); null for anything else.
 *
 * @example linkedDocOf("concepts") // "concepts.md"
 */
export function linkedDocOf(name: string): string | null {
  if (Object.hasOwn(LINKED_DOCS, name)) return name;
  return Object.hasOwn(LINKED_DOCS, `${name}.md`) ? `${name}.md` : null;
}
