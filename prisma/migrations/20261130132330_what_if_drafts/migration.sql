-- AlterTable
ALTER TABLE "simulations" ADD COLUMN     "draftId" TEXT,
ADD COLUMN     "kind" TEXT NOT NULL DEFAULT 'simulation';

-- CreateTable
CREATE TABLE "budget_drafts" (
    "id" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "authorId" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "children" JSONB NOT NULL,
    "basedOnVersion" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "adoptedAt" TIMESTAMP(3),
    "adoptedChangeId" TEXT,

    CONSTRAINT "budget_drafts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "budget_drafts_nodeId_createdAt_idx" ON "budget_drafts"("nodeId", "createdAt");

-- CreateIndex
CREATE INDEX "simulations_draftId_createdAt_idx" ON "simulations"("draftId", "createdAt");

-- AddForeignKey
ALTER TABLE "simulations" ADD CONSTRAINT "simulations_draftId_fkey" FOREIGN KEY ("draftId") REFERENCES "budget_drafts"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "budget_drafts" ADD CONSTRAINT "budget_drafts_nodeId_fkey" FOREIGN KEY ("nodeId") REFERENCES "budget_nodes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "budget_drafts" ADD CONSTRAINT "budget_drafts_authorId_fkey" FOREIGN KEY ("authorId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "budget_drafts" ADD CONSTRAINT "budget_drafts_adoptedChangeId_fkey" FOREIGN KEY ("adoptedChangeId") REFERENCES "allocation_changes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;
