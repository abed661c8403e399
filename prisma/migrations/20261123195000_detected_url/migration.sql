-- AlterTable
ALTER TABLE "LanguageTool" ADD COLUMN     "detectedUrl" TEXT;
