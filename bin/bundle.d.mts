/** See bin/bundle.mjs. */
export function bundleEntries(options: {
  entryPoints: Record<string, string>;
  outDir: string;
  define: Record<string, string>;
}): Promise<[string, string][]>;

export function ensureBundle(
  name: string,
  entry: string,
): Promise<{ entryPath: string; threadPath: string }>;
