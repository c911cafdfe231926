/** See bin/bundle.mjs. */
export function ensureBundle(
  name: string,
  entry: string,
): Promise<{ entryPath: string; threadPath: string }>;
