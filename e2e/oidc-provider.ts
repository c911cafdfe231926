// A real OpenID Connect provider for e2e tests (`oidc-provider`, the certified library), in the
// test process on 127.0.0.1: one confidential client, a few test people, and the library's own
// development login and consent pages. Loopback only; nothing is kept when it stops.
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { createServer, type Server } from "node:http";
import Provider, { type Configuration } from "oidc-provider";

/** A person the provider knows. They sign in with `login` and any password. */
export type TestPerson = { login: string; email: string; name: string };

export type TestIdentityProvider = {
  /** The issuer URL, e.g. http://127.0.0.1:3430: what OIDC_ISSUER is set to. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  stop: () => Promise<void>;
};

export type TestIdentityProviderOptions = {
  port: number;
  /** The client's redirect URIs: `<app origin>/api/auth/callback/oidc` for each app server. */
  redirectUris: string[];
  people: TestPerson[];
};

/** Starts the provider on 127.0.0.1:`port` and resolves once it listens. */
export async function startTestIdentityProvider({
  port,
  redirectUris,
  people,
}: TestIdentityProviderOptions): Promise<TestIdentityProvider> {
  // Plain http on loopback: the issuer is whatever URL we give it (openid-client, under
  // next-auth 4, accepts an http issuer; oidc-provider accepts http redirect URIs for a web
  // client that uses no implicit flow). Nothing here is a switch for "insecure mode".
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = "allot-e2e";
  const clientSecret = randomBytes(24).toString("hex");
  // A signing key of our own: without one the library signs with a built-in development key
  // and says so on every start.
  const signingKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({
    format: "jwk",
  });
  const configuration: Configuration = {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: redirectUris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
      },
    ],
    jwks: { keys: [{ ...signingKey, kid: "e2e", alg: "RS256", use: "sig" }] },
    cookies: { keys: [randomBytes(32).toString("hex")] },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // Put the email and name in the ID token, as Keycloak, Entra ID and Google do; by default
    // the library keeps them for the userinfo endpoint when an access token is issued too.
    conformIdTokenClaims: false,
    // The library's built-in login ("Sign-in": any login, any password) and consent pages.
    features: { devInteractions: { enabled: true } },
    async findAccount(_context, accountId) {
      const person = people.find((candidate) => candidate.login === accountId);
      if (!person) return undefined;
      return {
        accountId,
        claims: () => ({
          sub: accountId,
          email: person.email,
          email_verified: true,
          name: person.name,
        }),
      };
    },
  };
  const provider = new Provider(issuer, configuration);
  const handle = provider.callback();
  const server: Server = createServer((request, response) => void handle(request, response));
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve());
  });
  return {
    issuer,
    clientId,
    clientSecret,
    stop: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
