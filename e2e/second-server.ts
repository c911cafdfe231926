// A second production server for tests that need other settings than the main one (no demo
// mode, a database that goes away), on a free port from E2E_PORT + 1.
import {
  startProductionServer,
  type ProductionServer,
  type ProductionServerOptions,
} from "../lib/testing/production-server";
import { freePort } from "./fixtures";

export type SecondServer = ProductionServer;

/** Starts a server on a free port from E2E_PORT + 1 and waits for its health route. */
export async function startSecondServer(options: ProductionServerOptions): Promise<SecondServer> {
  return startProductionServer(await freePort(Number(process.env.E2E_PORT ?? 3210) + 1), options);
}
