// The server actions' error map, the counterpart of the API's apiRoute (lib/api/respond.ts):
// bad input -> a 422 state with field errors, an AppError -> its status and message, the
// database's own errors as the API maps them (503 when unreachable), anything else -> logged,
// and a 500 state that says nothing of it. Actions return the state instead of
// throwing, so a refusal is a message in the form, not an error page and a stack in the log.
import { unstable_rethrow } from "next/navigation";
import { ZodError } from "zod";
import { toDatabaseAppError } from "../data/db/prisma-errors";
import { AppError, ERROR_STATUS, type ErrorCode, type FieldIssue } from "../errors";
import { getLogger } from "../log/logger";

export type ActionError = {
  /** The status the API would answer: 401, 403, 404, 409, 422 or 500. */
  status: number;
  code: ErrorCode;
  /** A sentence for the form. */
  message: string;
  /** Field name (a form input's name, or a path like `children.2.weight`) -> its problem. */
  fieldErrors: Record<string, string>;
};

export type ActionResult<Data> = { ok: true; data: Data } | { ok: false; error: ActionError };

/** What a form keeps between submissions (useActionState): null before the first. */
export type ActionState<Data> = ActionResult<Data> | null;

const INTERNAL_MESSAGE = "Something went wrong on the server; it has been logged.";

function fieldErrorsOf(issues: readonly FieldIssue[]): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) errors[issue.path || "(form)"] ??= issue.message;
  return errors;
}

/** The state a failed action returns for `error`; unexpected errors are logged here. */
export function toActionError(error: unknown): ActionError {
  if (error instanceof ZodError) {
    const issues = error.issues.map((issue) => ({
      path: issue.path.map(String).join("."),
      message: issue.message,
    }));
    return {
      status: ERROR_STATUS.validation_failed,
      code: "validation_failed",
      message: issues[0]?.message ?? "The form has invalid fields.",
      fieldErrors: fieldErrorsOf(issues),
    };
  }
  const known = error instanceof AppError ? error : toDatabaseAppError(error);
  if (known) {
    return {
      status: known.status,
      code: known.code,
      message: known.message,
      fieldErrors: fieldErrorsOf(known.issues ?? []),
    };
  }
  getLogger().error({ err: error }, "server action: unexpected error");
  return {
    status: ERROR_STATUS.internal,
    code: "internal",
    message: INTERNAL_MESSAGE,
    fieldErrors: {},
  };
}

/**
 * Runs an action's work and returns its result as a state; never throws, except Next's own
 * control flow (redirect(), notFound()), which must reach Next.
 *
 * @example
 * export async function renameAction(_state: ActionState<null>, form: FormData) {
 *   return safeAction(async () => rename(await getSessionUser(), form));
 * }
 */
export async function safeAction<Data>(work: () => Promise<Data>): Promise<ActionResult<Data>> {
  try {
    return { ok: true, data: await work() };
  } catch (error) {
    unstable_rethrow(error);
    return { ok: false, error: toActionError(error) };
  }
}
