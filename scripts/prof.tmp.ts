import { createPrismaClient } from "../lib/data/client";
import { loadPeriodReview } from "../lib/data/review";
const db = createPrismaClient(process.env.DATABASE_URL!, 4);
const last = await db.usageHourly.aggregate({ _max: { hourStart: true } });
const toSec = Math.floor(last._max.hourStart!.getTime() / 1000) + 3600;
const fromSec = toSec - 30 * 86400;
for (let i = 0; i < 6; i++) {
  const t = performance.now(); const c = process.cpuUsage();
  await loadPeriodReview(db, { fromSec, toSec });
  console.log("loader", (performance.now() - t).toFixed(0), "cpu", ((process.cpuUsage(c).user)/1000).toFixed(0));
}
await db.$disconnect();
