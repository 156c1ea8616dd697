CREATE TYPE "public"."message_language" AS ENUM('en', 'hi');--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "message_language" "message_language";--> statement-breakpoint
ALTER TABLE "centers" ADD COLUMN "message_language" "message_language" DEFAULT 'en' NOT NULL;