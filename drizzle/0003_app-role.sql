-- The application's queries run as pathshala_app, a role that owns no table, so row-level
-- security applies to them (owners and superusers bypass it). Migrations run as the login user.
-- Roles belong to the whole server: databases migrating side by side may race to create it.
DO $$ BEGIN CREATE ROLE pathshala_app NOLOGIN; EXCEPTION WHEN duplicate_object OR unique_violation THEN NULL; END $$;--> statement-breakpoint
DO $$ BEGIN GRANT pathshala_app TO CURRENT_USER; EXCEPTION WHEN OTHERS THEN NULL; END $$;--> statement-breakpoint
GRANT USAGE ON SCHEMA public TO pathshala_app;--> statement-breakpoint
GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO pathshala_app;--> statement-breakpoint
GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA public TO pathshala_app;--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT SELECT, INSERT, UPDATE, DELETE ON TABLES TO pathshala_app;--> statement-breakpoint
ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT USAGE, SELECT ON SEQUENCES TO pathshala_app;--> statement-breakpoint
-- Even a connection that stays the owner is subject to the policies.
ALTER TABLE "enquiries" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "template_selections" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "content_orders" FORCE ROW LEVEL SECURITY;--> statement-breakpoint
ALTER TABLE "contents" FORCE ROW LEVEL SECURITY;
