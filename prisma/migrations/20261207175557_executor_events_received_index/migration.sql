-- CreateIndex
CREATE INDEX "executor_events_clusterId_receivedAt_idx" ON "executor_events"("clusterId", "receivedAt");
