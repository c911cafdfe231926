// A port for a test server, chosen by the operating system.
import { createServer, type AddressInfo } from "node:net";

/**
 * A port nothing listens on at 127.0.0.1, from the system's ephemeral range (32768 and up on
 * Linux). A port picked at random from a low range can be taken, or be one that `fetch` refuses
 * to call ("bad port": 3659 and others of the Fetch standard's list, all below 10081).
 */
export async function freeEphemeralPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
