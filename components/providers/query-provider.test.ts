import { QueryClient, useQueryClient } from "@tanstack/react-query";
import { createElement, type ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import DraftsLayout from "@/app/(app)/budgets/[nodeId]/drafts/layout";
import SimulationsLayout from "@/app/(app)/simulations/layout";
import { QueryProvider } from "./query-provider";

// The query clients seen inside the app provider and by a page wrapped by `wrap`, in that order.
function clientsSeenIn(wrap: (page: ReactNode) => ReactNode): QueryClient[] {
  const seen: QueryClient[] = [];
  function Probe({ children }: { children?: ReactNode }) {
    seen.push(useQueryClient());
    return children ?? null;
  }
  renderToString(
    createElement(QueryProvider, null, createElement(Probe, null, wrap(createElement(Probe)))),
  );
  return seen;
}

function queryDefaults(client: QueryClient | undefined) {
  const queries = client?.getDefaultOptions().queries;
  return { staleTime: queries?.staleTime, retry: queries?.retry };
}

describe("QueryProvider", () => {
  it("gives the app's pages staleTime 2000 ms and one retry when no staleTimeMs is passed", () => {
    const [app, page] = clientsSeenIn((page) => page);
    expect(queryDefaults(app)).toEqual({ staleTime: 2000, retry: 1 });
    expect(page).toBe(app);
  });

  it("gives the simulation pages a client of their own with staleTime 1000 ms", () => {
    const [app, page] = clientsSeenIn((page) => createElement(SimulationsLayout, null, page));
    expect(queryDefaults(page)).toEqual({ staleTime: 1000, retry: 1 });
    expect(page).not.toBe(app);
  });

  it("gives the what-if (drafts) pages a client of their own with staleTime 1000 ms", () => {
    const [app, page] = clientsSeenIn((page) => createElement(DraftsLayout, null, page));
    expect(queryDefaults(page)).toEqual({ staleTime: 1000, retry: 1 });
    expect(page).not.toBe(app);
  });
});
