// A port for a test server, chosen by the operating system.
import { createServer, type AddressInfo } from "node:net";

/** The highest port of the Fetch standard's "bad ports", which `fetch` refuses to call. */
const HIGHEST_BAD_PORT = 10_080;

function systemPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * A port nothing listens on at 127.0.0.1, from the system's ephemeral range, and above every
 * port `fetch` refuses ("bad port": 3659 and others of the Fetch standard's list). A port picked
 * at random from a fixed range can be taken, or be one of those.
 */
export async function freeEphemeralPort(): Promise<number> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = await systemPort();
    if (port > HIGHEST_BAD_PORT) return port;
  }
  throw new Error(`the system gave no free port above ${HIGHEST_BAD_PORT} in 100 tries`);
}
