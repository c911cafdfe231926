// Tests read the app's log lines: the logger (lib/log/logger.ts) writes to a stream kept here.
import { Writable } from "node:stream";
import { resetLogger, setLogDestination } from "../log/logger";

export type LogLine = Record<string, unknown> & { msg: string; level: string };

export type LogCapture = {
  /** Every line written since the capture started (or was cleared), parsed. */
  entries: () => LogLine[];
  /** The raw text of those lines. */
  text: () => string;
  clear: () => void;
  /** Back to the default logger. */
  stop: () => void;
};

/** Points the app's logger at memory, at `level` (info by default). */
export function captureLogs(level = "info"): LogCapture {
  const lines: string[] = [];
  setLogDestination(
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(...chunk.toString().split("\n").filter(Boolean));
        done();
      },
    }),
    level,
  );
  return {
    entries: () => lines.map((line) => JSON.parse(line) as LogLine),
    text: () => lines.join("\n"),
    clear: () => void lines.splice(0),
    stop: resetLogger,
  };
}
