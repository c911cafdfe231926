-- Written by hand: the database itself keeps the budget tree whole
-- (docs/decisions/082-budget-tree-lock.md). The app serialises tree edits with an advisory
-- lock, and these foreign keys are the backstop for any writer that does not take it.
-- (No semicolon may stand inside a statement or a comment here: the migration runner splits
-- the script at each one.)
--
-- First, repair a tree that a race before this migration left broken: a live budget below a
-- removed one is removed too (with its subtree), and work queued on a removed budget, which
-- could never run, is cancelled (its open runs end). Nothing is deleted.
UPDATE "budget_nodes" SET "removedAt" = CURRENT_TIMESTAMP
WHERE "removedAt" IS NULL AND "id" NOT IN (
  WITH RECURSIVE "rooted" AS (
    SELECT "id" FROM "budget_nodes" WHERE "parentId" IS NULL AND "removedAt" IS NULL
    UNION
    SELECT child."id" FROM "budget_nodes" child
    JOIN "rooted" ON child."parentId" = "rooted"."id"
    WHERE child."removedAt" IS NULL
  )
  SELECT "id" FROM "rooted"
);

UPDATE "runs" SET "endedAt" = CURRENT_TIMESTAMP, "endReason" = 'cancelled'
WHERE "endedAt" IS NULL AND "jobId" IN (
  SELECT job."id" FROM "jobs" job JOIN "budget_nodes" budget ON budget."id" = job."budgetId"
  WHERE job."state" IN ('pending', 'running') AND budget."removedAt" IS NOT NULL
);

UPDATE "jobs" SET "state" = 'cancelled', "endedAt" = CURRENT_TIMESTAMP,
  "waitRule" = NULL, "waitKey" = NULL, "queuePosition" = NULL
WHERE "state" IN ('pending', 'running') AND "budgetId" IN (
  SELECT "id" FROM "budget_nodes" WHERE "removedAt" IS NOT NULL
);

-- Each budget says whether it is live, and each live budget points at its parent as "a live
-- node". A removal of the parent while a live child points at it is a foreign key violation,
-- and so is a live child inserted under a removed parent. Postgres's own row locks serialise
-- the two: inserting the child locks the parent's key, removing the parent changes it.
ALTER TABLE "budget_nodes"
  ADD COLUMN "isLive" BOOLEAN GENERATED ALWAYS AS ("removedAt" IS NULL) STORED,
  ADD COLUMN "liveParentId" TEXT GENERATED ALWAYS AS (CASE WHEN "removedAt" IS NULL THEN "parentId" END) STORED,
  ADD COLUMN "mustBeLive" BOOLEAN GENERATED ALWAYS AS (TRUE) STORED;

CREATE UNIQUE INDEX "budget_nodes_id_isLive_key" ON "budget_nodes"("id", "isLive");

ALTER TABLE "budget_nodes" ADD CONSTRAINT "budget_nodes_live_parent_fkey"
  FOREIGN KEY ("liveParentId", "mustBeLive") REFERENCES "budget_nodes"("id", "isLive");

-- Likewise a pending or running job points at its budget as a live node: a budget with queued
-- or running work cannot be removed, and no work can be queued on a removed budget.
ALTER TABLE "jobs"
  ADD COLUMN "liveBudgetId" TEXT GENERATED ALWAYS AS (CASE WHEN "state" IN ('pending', 'running') THEN "budgetId" END) STORED,
  ADD COLUMN "budgetMustBeLive" BOOLEAN GENERATED ALWAYS AS (TRUE) STORED;

ALTER TABLE "jobs" ADD CONSTRAINT "jobs_live_budget_fkey"
  FOREIGN KEY ("liveBudgetId", "budgetMustBeLive") REFERENCES "budget_nodes"("id", "isLive");
