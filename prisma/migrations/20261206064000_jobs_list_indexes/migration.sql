-- CreateIndex
CREATE INDEX "jobs_userId_submittedAt_idx" ON "jobs"("userId", "submittedAt");

-- CreateIndex
CREATE INDEX "jobs_budgetId_submittedAt_idx" ON "jobs"("budgetId", "submittedAt");

-- CreateIndex
CREATE INDEX "jobs_submittedAt_idx" ON "jobs"("submittedAt");
