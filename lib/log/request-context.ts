// Who is calling, kept for the request's log line: apiRoute opens the context, lib/auth.ts
// fills in the caller as it learns it (a user id, a token's prefix, a cluster).
import { AsyncLocalStorage } from "node:async_hooks";

export type RequestCaller = { userId?: string; tokenPrefix?: string; cluster?: string };

const store = globalThis as unknown as { allotRequestContext?: AsyncLocalStorage<RequestCaller> };
const context = (store.allotRequestContext ??= new AsyncLocalStorage<RequestCaller>());

/** Runs `work` with a fresh caller record, returned beside its result. */
export async function withRequestCaller<Result>(
  work: () => Promise<Result>,
): Promise<{ caller: RequestCaller; result: Result }> {
  const caller: RequestCaller = {};
  const result = await context.run(caller, work);
  return { caller, result };
}

/** Notes what is known of the caller of the current request (nothing outside a request). */
export function noteCaller(fields: RequestCaller): void {
  const caller = context.getStore();
  if (caller) Object.assign(caller, fields);
}
