// The API fuzz test's requests (lib/api/input-fuzz.db.test.ts): what a case is and what it
// expects, and builders that turn a valid request into malformed ones, one part at a time.
import fc from "fast-check";
import {
  badDate,
  badLine,
  badMonth,
  junkBodyText,
  junkParam,
  junkQuery,
  preview,
} from "./malformed";

/** Names of what the test creates (a branch, tokens, event ids), to find and remove them. */
export const FUZZ_LABEL = "zz-fuzz";

export type Method = "GET" | "POST" | "PUT" | "DELETE";
export type TokenName = "admin" | "researcher" | "cluster";
export type FieldPath = (string | number)[];

export type FuzzCase = {
  /** What is wrong with the request, for the failure message. */
  label: string;
  token: TokenName;
  params?: Record<string, string>;
  query?: string;
  /** A JSON body (RawNumber values spliced in), or `bodyText` verbatim. */
  body?: unknown;
  bodyText?: string;
  /** "refusal": must be a 4xx; "any": any status but 5xx (e.g. a query a route ignores). */
  expect: "refusal" | "any";
  /** Statuses the refusal must have, when it matters. */
  statuses?: number[];
  /** The field a 422 must name (an issue path equal to it or below it). */
  field?: string;
};

export type Fixture = {
  tokens: Record<TokenName, string>;
  programId: string;
  version: number;
  children: { id: string; name: string; weight: number }[];
  leafId: string;
  email: string;
  draftId: string;
  cluster: string;
};

export type CaseMaker = (fixture: Fixture) => fc.Arbitrary<FuzzCase>;

function withValue(body: unknown, field: FieldPath, value: unknown): unknown {
  const copy = structuredClone(body) as Record<string | number, unknown>;
  let at = copy;
  for (const key of field.slice(0, -1)) at = at[key] as Record<string | number, unknown>;
  at[field.at(-1)!] = value;
  return copy;
}

/** Who sends a case (default: the admin) and the path parameters it goes to. */
export type Target = { tokens?: TokenName[]; params?: Record<string, string> };

/** One field of a valid body replaced by a wrong value: a 422 naming that field. */
export function fieldCases(
  base: unknown,
  fields: [FieldPath, fc.Arbitrary<unknown>][],
  { tokens = ["admin"], params }: Target = {},
): fc.Arbitrary<FuzzCase> {
  return fc.oneof(
    ...fields.map(([field, bad]) =>
      fc.tuple(bad, fc.constantFrom(...tokens)).map(([value, token]): FuzzCase => ({
        label: `${field.join(".")} = ${preview(value)}`,
        token,
        params,
        body: withValue(base, field, value),
        expect: "refusal",
        statuses: [422],
        field: field.join("."),
      })),
    ),
  );
}

/** A body that is no JSON object, or not JSON at all: 400 or 422. */
export function junkBodies({ tokens = ["admin"], params }: Target = {}): fc.Arbitrary<FuzzCase> {
  return fc.tuple(junkBodyText(), fc.constantFrom(...tokens)).map(([text, token]) => ({
    label: `body ${preview(text)}`,
    token,
    params,
    bodyText: text,
    expect: "refusal",
    statuses: [400, 422],
  }));
}

/** One path parameter replaced by junk (the others and the body valid): refused. */
export function paramCases(
  valid: Record<string, string>,
  body?: unknown,
  tokens: TokenName[] = ["admin", "researcher"],
): fc.Arbitrary<FuzzCase> {
  return fc
    .tuple(fc.constantFrom(...Object.keys(valid)), junkParam(), fc.constantFrom(...tokens))
    .map(([name, junk, token]) => ({
      label: `:${name} = ${preview(junk)}`,
      token,
      params: { ...valid, [name]: junk },
      body,
      expect: "refusal",
      statuses: [403, 404, 422],
    }));
}

/** Junk in a query string the route does not read: anything but a 5xx. */
export function queryCases(
  params?: Record<string, string>,
  tokens: TokenName[] = ["admin", "researcher", "cluster"],
): fc.Arbitrary<FuzzCase> {
  return fc.tuple(junkQuery(), fc.constantFrom(...tokens)).map(([query, token]) => ({
    label: `?${preview(query)}`,
    token,
    params,
    query,
    expect: "any",
  }));
}

/** The review's query with one parameter wrong: a 422 naming it. */
export function reviewQueryCases(fixture: Fixture): fc.Arbitrary<FuzzCase> {
  const asQueryValue = (value: unknown) =>
    typeof value === "string" ? value : JSON.stringify(value);
  const cases: [string, Record<string, string>, fc.Arbitrary<unknown>][] = [
    ["month", {}, badMonth()],
    ["from", { to: "2026-10-31" }, badDate()],
    ["to", { from: "2026-10-01" }, badDate()],
    ["cluster", { month: "2026-10" }, badLine(fixture.cluster, 100)],
  ];
  return fc.oneof(
    ...cases.map(([name, rest, bad]) =>
      fc
        .tuple(
          // An empty field means "not given" (a form's blank input), so it is no error.
          bad.map(asQueryValue).filter((value) => value !== ""),
          fc.constantFrom<TokenName>("admin", "researcher"),
        )
        .map(([value, token]): FuzzCase => ({
          label: `?${name}=${preview(value)}`,
          token,
          query: new URLSearchParams({ ...rest, [name]: value }).toString(),
          expect: "refusal",
          statuses: [422],
          field: name,
        })),
    ),
    queryCases(),
  );
}
