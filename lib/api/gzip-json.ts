// Stored gzip JSON, answered as the client asks: a client that lists `application/gzip` in
// Accept (the simulation page) gets the stored bytes as they are, so the server neither unzips
// nor compresses again megabytes of JSON (Next drops a route's own Content-Encoding, so the
// bytes travel as a gzip document and the page unzips them with DecompressionStream); any other
// client gets the JSON, which Next compresses for the wire as usual.
import { gunzipSync } from "node:zlib";

export const GZIP_MEDIA_TYPE = "application/gzip";

/** Whether an Accept header lists application/gzip itself (not through a wildcard), q above 0. */
export function acceptsGzipDocument(header: string | null): boolean {
  if (!header) return false;
  return header.split(",").some((part) => {
    const [type = "", ...params] = part.split(";").map((text) => text.trim().toLowerCase());
    if (type !== GZIP_MEDIA_TYPE) return false;
    const q = params.find((param) => param.startsWith("q="));
    return q === undefined || Number(q.slice(2)) > 0;
  });
}

/** A 200 response of stored gzip JSON: the bytes as stored, or the JSON, as the request asks. */
export function gzipJsonResponse(
  request: Request,
  gz: Uint8Array<ArrayBuffer>,
  headers: Record<string, string> = {},
): Response {
  const common = { Vary: "Accept", ...headers };
  if (acceptsGzipDocument(request.headers.get("accept"))) {
    return new Response(gz, { headers: { ...common, "Content-Type": GZIP_MEDIA_TYPE } });
  }
  return new Response(gunzipSync(gz).toString("utf8"), {
    headers: { ...common, "Content-Type": "application/json" },
  });
}
