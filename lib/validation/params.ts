// Path parameters (ids, cluster names, run ids) are checked before any query uses them
// (docs/decisions/081-input-at-the-edge.md). A parameter no resource could have (empty, over
// MAX_PATH_PARAM_LENGTH characters, a control character, a lone surrogate) is answered like
// an unknown one, 404, with an issue naming the parameter and saying why.
import { AppError } from "../errors";
import { lineString } from "../text";

/** Ids are cuids (25 characters) and cluster names are short: 100 is far past either. */
export const MAX_PATH_PARAM_LENGTH = 100;

/** One path parameter, taken exactly as it came (no trim: " x" is not "x"). */
export const pathParamSchema = lineString("Give the id in the path.")
  .min(1, "The path has an empty id.")
  .max(MAX_PATH_PARAM_LENGTH, `An id in the path has at most ${MAX_PATH_PARAM_LENGTH} characters.`);

/**
 * The route's params, each checked by pathParamSchema; throws a 404 `not_found` whose issues
 * name the bad ones (`params.id`).
 *
 * @example const { id } = parsePathParams(await context.params);
 */
export function parsePathParams<Params extends Record<string, string>>(params: Params): Params {
  const issues = Object.entries(params).flatMap(([name, value]) => {
    const result = pathParamSchema.safeParse(value);
    return result.success
      ? []
      : [{ path: `params.${name}`, message: result.error.issues[0]?.message ?? "Malformed." }];
  });
  if (issues.length > 0) {
    throw new AppError("not_found", "Nothing has that id: the path is malformed.", issues);
  }
  return params;
}

/** True when `value` could name a resource (the page variant of parsePathParams). */
export function isPathParam(value: string): boolean {
  return pathParamSchema.safeParse(value).success;
}
