-- Links and codes issued before they were bound to their site were written for whatever host was
-- asked (issue 37): any still open may lead to, or work on, a stranger's site. Spend them; their
-- owners ask again.
UPDATE "password_resets" SET "used_at" = now() WHERE "used_at" IS NULL;--> statement-breakpoint
UPDATE "email_changes" SET "used_at" = now() WHERE "used_at" IS NULL;--> statement-breakpoint
UPDATE "phone_codes" SET "used_at" = now() WHERE "used_at" IS NULL AND "purpose" = 'sign-in';
