-- CreateEnum
CREATE TYPE "ChangeKind" AS ENUM ('children', 'leads', 'members');

-- DropIndex
DROP INDEX "budget_nodes_parentId_name_key";

-- AlterTable
ALTER TABLE "budget_nodes" ADD COLUMN     "removedAt" TIMESTAMP(3);

-- AlterTable
ALTER TABLE "allocation_changes" ADD COLUMN     "kind" "ChangeKind" NOT NULL DEFAULT 'children';

-- Added by hand: names are unique among live siblings only, so a removed node keeps its
-- name (and its jobs and history) while a new sibling may take the name again.
CREATE UNIQUE INDEX "budget_nodes_live_sibling_name" ON "budget_nodes"("parentId", "name") WHERE "removedAt" IS NULL;

