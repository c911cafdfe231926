-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "NodeHealth" AS ENUM ('healthy', 'draining', 'down');

-- CreateEnum
CREATE TYPE "Priority" AS ENUM ('low', 'normal', 'high');

-- CreateEnum
CREATE TYPE "JobState" AS ENUM ('pending', 'running', 'completed', 'failed', 'preempted', 'cancelled');

-- CreateEnum
CREATE TYPE "RunEndReason" AS ENUM ('completed', 'failed', 'preempted', 'cancelled', 'node_down');

-- CreateEnum
CREATE TYPE "DecisionKind" AS ENUM ('start', 'preempt', 'wait', 'drain');

-- CreateEnum
CREATE TYPE "TokenKind" AS ENUM ('personal', 'cluster');

-- CreateTable
CREATE TABLE "users" (
    "id" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "isAdmin" BOOLEAN NOT NULL DEFAULT false,
    "isDemo" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "budget_nodes" (
    "id" TEXT NOT NULL,
    "parentId" TEXT,
    "name" TEXT NOT NULL,
    "weight" DOUBLE PRECISION NOT NULL,
    "version" INTEGER NOT NULL DEFAULT 1,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "budget_nodes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "budget_leads" (
    "nodeId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "budget_leads_pkey" PRIMARY KEY ("nodeId","userId")
);

-- CreateTable
CREATE TABLE "budget_members" (
    "nodeId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "budget_members_pkey" PRIMARY KEY ("nodeId","userId")
);

-- CreateTable
CREATE TABLE "allocation_changes" (
    "id" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "userId" TEXT,
    "reason" TEXT NOT NULL,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "before" JSONB NOT NULL,
    "after" JSONB NOT NULL,

    CONSTRAINT "allocation_changes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "weight_changes" (
    "id" TEXT NOT NULL,
    "nodeId" TEXT NOT NULL,
    "changeId" TEXT,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "weightBefore" DOUBLE PRECISION,
    "weightAfter" DOUBLE PRECISION,

    CONSTRAINT "weight_changes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "clusters" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "gpuType" TEXT NOT NULL,
    "lookbackSec" INTEGER NOT NULL DEFAULT 604800,
    "maxMinRuntimeSec" INTEGER NOT NULL DEFAULT 28800,

    CONSTRAINT "clusters_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "cluster_nodes" (
    "id" TEXT NOT NULL,
    "clusterId" TEXT NOT NULL,
    "index" INTEGER NOT NULL,
    "gpus" INTEGER NOT NULL,
    "health" "NodeHealth" NOT NULL DEFAULT 'healthy',
    "healthChangedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "drainedAt" TIMESTAMP(3),

    CONSTRAINT "cluster_nodes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "jobs" (
    "id" TEXT NOT NULL,
    "clusterId" TEXT NOT NULL,
    "budgetId" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "gpus" INTEGER NOT NULL,
    "minRuntimeSec" INTEGER NOT NULL,
    "isResumable" BOOLEAN NOT NULL,
    "priority" "Priority" NOT NULL DEFAULT 'normal',
    "jobClass" TEXT NOT NULL DEFAULT 'training',
    "state" "JobState" NOT NULL DEFAULT 'pending',
    "submittedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "workSec" INTEGER,
    "remainingWorkSec" INTEGER,
    "endedAt" TIMESTAMP(3),
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "jobs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "runs" (
    "id" TEXT NOT NULL,
    "jobId" TEXT NOT NULL,
    "clusterId" TEXT NOT NULL,
    "budgetId" TEXT NOT NULL,
    "gpus" INTEGER NOT NULL,
    "placement" JSONB NOT NULL,
    "isAllocated" BOOLEAN NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "protectedUntil" TIMESTAMP(3) NOT NULL,
    "endedAt" TIMESTAMP(3),
    "endReason" "RunEndReason",

    CONSTRAINT "runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "decisions" (
    "id" TEXT NOT NULL,
    "clusterId" TEXT NOT NULL,
    "jobId" TEXT,
    "runId" TEXT,
    "kind" "DecisionKind" NOT NULL,
    "at" TIMESTAMP(3) NOT NULL,
    "reason" JSONB NOT NULL,

    CONSTRAINT "decisions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "executor_events" (
    "id" TEXT NOT NULL,
    "clusterId" TEXT NOT NULL,
    "eventId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "executor_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "usage_hourly" (
    "clusterId" TEXT NOT NULL,
    "budgetId" TEXT NOT NULL,
    "hourStart" TIMESTAMP(3) NOT NULL,
    "demandGpuSec" DOUBLE PRECISION NOT NULL,
    "allocatedGpuSec" DOUBLE PRECISION NOT NULL,
    "unallocatedGpuSec" DOUBLE PRECISION NOT NULL,
    "healthyCapacityGpuSec" DOUBLE PRECISION NOT NULL,

    CONSTRAINT "usage_hourly_pkey" PRIMARY KEY ("clusterId","budgetId","hourStart")
);

-- CreateTable
CREATE TABLE "api_tokens" (
    "id" TEXT NOT NULL,
    "kind" "TokenKind" NOT NULL,
    "name" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "userId" TEXT,
    "clusterId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "api_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_email_key" ON "users"("email");

-- CreateIndex
CREATE INDEX "budget_nodes_parentId_idx" ON "budget_nodes"("parentId");

-- CreateIndex
CREATE UNIQUE INDEX "budget_nodes_parentId_name_key" ON "budget_nodes"("parentId", "name");

-- CreateIndex
CREATE INDEX "budget_leads_userId_idx" ON "budget_leads"("userId");

-- CreateIndex
CREATE INDEX "budget_members_userId_idx" ON "budget_members"("userId");

-- CreateIndex
CREATE INDEX "allocation_changes_nodeId_at_idx" ON "allocation_changes"("nodeId", "at");

-- CreateIndex
CREATE INDEX "weight_changes_nodeId_at_idx" ON "weight_changes"("nodeId", "at");

-- CreateIndex
CREATE UNIQUE INDEX "clusters_name_key" ON "clusters"("name");

-- CreateIndex
CREATE UNIQUE INDEX "cluster_nodes_clusterId_index_key" ON "cluster_nodes"("clusterId", "index");

-- CreateIndex
CREATE INDEX "jobs_clusterId_state_idx" ON "jobs"("clusterId", "state");

-- CreateIndex
CREATE INDEX "jobs_userId_state_idx" ON "jobs"("userId", "state");

-- CreateIndex
CREATE INDEX "jobs_budgetId_state_idx" ON "jobs"("budgetId", "state");

-- CreateIndex
CREATE INDEX "runs_clusterId_endedAt_idx" ON "runs"("clusterId", "endedAt");

-- CreateIndex
CREATE INDEX "runs_jobId_idx" ON "runs"("jobId");

-- CreateIndex
CREATE INDEX "decisions_clusterId_at_idx" ON "decisions"("clusterId", "at");

-- CreateIndex
CREATE INDEX "decisions_jobId_at_idx" ON "decisions"("jobId", "at");

-- CreateIndex
CREATE UNIQUE INDEX "executor_events_clusterId_eventId_key" ON "executor_events"("clusterId", "eventId");

-- CreateIndex
CREATE INDEX "usage_hourly_hourStart_idx" ON "usage_hourly"("hourStart");

-- CreateIndex
CREATE UNIQUE INDEX "api_tokens_tokenHash_key" ON "api_tokens"("tokenHash");

-- AddForeignKey
ALTER TABLE "budget_nodes" ADD CONSTRAINT "budget_nodes_parentId_fkey" FOREIGN KEY ("parentId") REFERENCES "budget_nodes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "budget_leads" ADD CONSTRAINT "budget_leads_nodeId_fkey" FOREIGN KEY ("nodeId") REFERENCES "budget_nodes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "budget_leads" ADD CONSTRAINT "budget_leads_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "budget_members" ADD CONSTRAINT "budget_members_nodeId_fkey" FOREIGN KEY ("nodeId") REFERENCES "budget_nodes"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "budget_members" ADD CONSTRAINT "budget_members_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "allocation_changes" ADD CONSTRAINT "allocation_changes_nodeId_fkey" FOREIGN KEY ("nodeId") REFERENCES "budget_nodes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "allocation_changes" ADD CONSTRAINT "allocation_changes_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "weight_changes" ADD CONSTRAINT "weight_changes_nodeId_fkey" FOREIGN KEY ("nodeId") REFERENCES "budget_nodes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "weight_changes" ADD CONSTRAINT "weight_changes_changeId_fkey" FOREIGN KEY ("changeId") REFERENCES "allocation_changes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "cluster_nodes" ADD CONSTRAINT "cluster_nodes_clusterId_fkey" FOREIGN KEY ("clusterId") REFERENCES "clusters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_clusterId_fkey" FOREIGN KEY ("clusterId") REFERENCES "clusters"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_budgetId_fkey" FOREIGN KEY ("budgetId") REFERENCES "budget_nodes"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "runs" ADD CONSTRAINT "runs_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "runs" ADD CONSTRAINT "runs_clusterId_fkey" FOREIGN KEY ("clusterId") REFERENCES "clusters"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "decisions" ADD CONSTRAINT "decisions_clusterId_fkey" FOREIGN KEY ("clusterId") REFERENCES "clusters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "decisions" ADD CONSTRAINT "decisions_jobId_fkey" FOREIGN KEY ("jobId") REFERENCES "jobs"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "executor_events" ADD CONSTRAINT "executor_events_clusterId_fkey" FOREIGN KEY ("clusterId") REFERENCES "clusters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "usage_hourly" ADD CONSTRAINT "usage_hourly_clusterId_fkey" FOREIGN KEY ("clusterId") REFERENCES "clusters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_clusterId_fkey" FOREIGN KEY ("clusterId") REFERENCES "clusters"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Backstops Prisma's schema language cannot express (added by hand).
CREATE UNIQUE INDEX "budget_nodes_single_root" ON "budget_nodes" ((true)) WHERE "parentId" IS NULL;
ALTER TABLE "budget_nodes" ADD CONSTRAINT "budget_nodes_weight_range" CHECK ("weight" >= 0 AND "weight" <= 1000000);
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_gpus_positive" CHECK ("gpus" > 0);
ALTER TABLE "jobs" ADD CONSTRAINT "jobs_min_runtime_range" CHECK ("minRuntimeSec" >= 0);
ALTER TABLE "cluster_nodes" ADD CONSTRAINT "cluster_nodes_gpus_positive" CHECK ("gpus" > 0);
