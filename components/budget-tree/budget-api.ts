// The browser's calls to the budgets API: the same routes scripts use, the same error shape.
import type { FieldIssue } from "@/lib/errors";

export type ChildrenState = {
  nodeId: string;
  name: string;
  version: number;
  children: { id: string; name: string; weight: number }[];
  lastChange: { by: string | null; at: string; reason: string } | null;
};

export type ApiFailure = {
  status: number;
  code: string;
  message: string;
  issues: FieldIssue[];
  details?: unknown;
};

export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: ApiFailure };

/** Sends JSON to one of the API's routes and reads its answer or its error shape. */
export async function callApi<T>(
  method: string,
  url: string,
  body: unknown,
): Promise<ApiResult<T>> {
  try {
    const response = await fetch(url, {
      method,
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const json = (await response.json().catch(() => null)) as
      (T & { error?: undefined }) | { error: Omit<ApiFailure, "status"> } | null;
    if (response.ok && json) return { ok: true, value: json as T };
    const error = json?.error;
    return {
      ok: false,
      error: {
        status: response.status,
        code: error?.code ?? "internal",
        message: error?.message ?? `The server answered ${response.status}.`,
        issues: error?.issues ?? [],
        details: error?.details,
      },
    };
  } catch {
    return {
      ok: false,
      error: {
        status: 0,
        code: "network",
        message: "The server could not be reached.",
        issues: [],
      },
    };
  }
}

export function saveChildren(
  nodeId: string,
  body: {
    version: number;
    reason: string;
    children: { id?: string; name: string; weight: number }[];
  },
) {
  return callApi<ChildrenState & { warnings: string[] }>(
    "PUT",
    `/api/v1/budgets/${encodeURIComponent(nodeId)}/children`,
    body,
  );
}

export function changePerson(
  nodeId: string,
  role: "leads" | "members",
  email: string,
  isAdding: boolean,
) {
  return callApi<{ changed: boolean; people: { id: string; name: string; email: string }[] }>(
    isAdding ? "POST" : "DELETE",
    `/api/v1/budgets/${encodeURIComponent(nodeId)}/${role}`,
    { email },
  );
}

/** The current state sent with a 409 for a stale version, when that is what it is. */
export function staleState(error: ApiFailure): ChildrenState | null {
  const details = error.details as ({ kind?: string } & ChildrenState) | undefined;
  return error.status === 409 && details?.kind === "stale-version" ? details : null;
}
