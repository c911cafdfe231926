import { createPrismaClient } from "../../lib/data/client";
import { loadPeriodReview } from "../../lib/data/review";
const db = createPrismaClient("postgresql://postgres@127.0.0.1:5432/benchq", 4);
const last = await db.usageHourly.aggregate({ _max: { hourStart: true } });
const toSec = Math.floor(last._max.hourStart!.getTime() / 1000) + 3600;
const fromSec = toSec - 30 * 86400;
const times: number[] = [];
for (let i = 0; i < 12; i++) {
  const t = performance.now(); const c = process.cpuUsage();
  await loadPeriodReview(db, { fromSec, toSec });
  const u = process.cpuUsage(c);
  times.push(performance.now() - t);
  console.log(`${(performance.now() - t).toFixed(0)} ms, cpu ${((u.user + u.system) / 1000).toFixed(0)}`);
}
await db.$disconnect();
