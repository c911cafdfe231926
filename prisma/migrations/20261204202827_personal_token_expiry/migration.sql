-- AlterTable
ALTER TABLE "api_tokens" ADD COLUMN     "expiresAt" TIMESTAMP(3);
