// Who is asking: the browser session, a personal token or a cluster's executor token. What
// they may edit in the budget tree is lib/data/budget-access.ts (docs/concepts.md).
import "server-only";
import { getServerSession } from "next-auth";
import { BEARER_PATTERN } from "./guards/request-guard";
import { authOptions } from "./auth-options";
import { findClusterByToken } from "./data/tokens";
import { findUserById, findUserByToken, type SessionUser } from "./data/users";
import { AppError } from "./errors";
import { tokenPrefix } from "./log/logger";
import { noteCaller } from "./log/request-context";

/** The signed-in person from the browser session, or null. */
export async function getSessionUser(): Promise<SessionUser | null> {
  const session = await getServerSession(authOptions());
  const user = session?.userId ? await findUserById(session.userId) : null;
  if (user) noteCaller({ userId: user.id });
  return user;
}

/** The caller of an API route: a bearer token first, else the browser session. */
export async function getApiCaller(request: Request): Promise<SessionUser | null> {
  const header = request.headers.get("authorization");
  if (header) {
    const match = BEARER_PATTERN.exec(header);
    if (!match?.[1]) throw new AppError("unauthorized", "Authorization must be 'Bearer <token>'.");
    noteCaller({ tokenPrefix: tokenPrefix(match[1]) });
    const user = await findUserByToken(match[1]);
    if (user) {
      noteCaller({ userId: user.id });
      return user;
    }
    if (await findClusterByToken(match[1])) {
      throw new AppError(
        "forbidden",
        "Cluster tokens may only post events to, and read the plan and accounts of, their own cluster.",
      );
    }
    throw new AppError("unauthorized", "The token is unknown or revoked.");
  }
  return getSessionUser();
}

export async function requireApiCaller(request: Request): Promise<SessionUser> {
  const user = await getApiCaller(request);
  if (!user)
    throw new AppError("unauthorized", "Sign in, or send 'Authorization: Bearer <token>'.");
  return user;
}

/**
 * The signed-in person of an API call made from the browser session, not with a token: personal
 * tokens are made only there, so that a token, which may expire or leak, cannot make another
 * that outlives it (docs/security.md).
 */
export async function requireSessionCaller(request: Request): Promise<SessionUser> {
  const user = await requireApiCaller(request);
  if (request.headers.get("authorization")) {
    throw new AppError(
      "forbidden",
      "A token cannot make tokens: make one on the API tokens page, signed in.",
    );
  }
  return user;
}

/**
 * An executor for `clusterName`: a cluster token of that cluster, or an admin (browser session
 * or personal token). Cluster tokens of other clusters get 403.
 */
export async function requireExecutor(request: Request, clusterName: string): Promise<void> {
  const match = BEARER_PATTERN.exec(request.headers.get("authorization") ?? "");
  if (match?.[1]) {
    noteCaller({ tokenPrefix: tokenPrefix(match[1]) });
    const tokenCluster = await findClusterByToken(match[1]);
    if (tokenCluster !== null) {
      noteCaller({ cluster: tokenCluster });
      if (tokenCluster === clusterName) return;
      throw new AppError("forbidden", `This token belongs to cluster "${tokenCluster}".`);
    }
  }
  const user = await requireApiCaller(request);
  if (!user.isAdmin) {
    throw new AppError(
      "forbidden",
      "Only the cluster's executor (its token) or an admin may do this.",
    );
  }
}
