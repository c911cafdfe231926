// POST /api/v1/clusters/[name]/events - executor events (idempotent by event id)
import { NextResponse } from "next/server";
import { apiRoute, readJson } from "@/lib/api/respond";
import { requireExecutor } from "@/lib/auth";
import { ingestEvents } from "@/lib/data/executor";
import { parseExecutorEvents, parseExecutorKind } from "@/lib/validation/executor";
import { parsePathParams } from "@/lib/validation/params";

export const dynamic = "force-dynamic";

/** 500 events, each with up to 2,000 characters of message. */
const MAX_EVENTS_BYTES = 8 * 1024 * 1024;

type Context = { params: Promise<{ name: string }> };

export const POST = apiRoute(async (request, { params }: Context) => {
  const { name } = parsePathParams(await params);
  await requireExecutor(request, name);
  const events = parseExecutorEvents(await readJson(request, { maxBytes: MAX_EVENTS_BYTES }));
  const { results, tick, tickError } = await ingestEvents(name, events, {
    callerKind: parseExecutorKind(request.headers),
  });
  // Committed events are answered 200 even when the tick after them failed.
  return NextResponse.json({
    results,
    tick: tick && {
      isSkipped: tick.isSkipped,
      starts: tick.starts,
      preemptions: tick.preemptions,
      drainsCompleted: tick.drainsCompleted,
    },
    ...(tickError ? { tickError } : {}),
  });
});
