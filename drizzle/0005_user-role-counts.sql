CREATE TABLE "user_role_counts" (
	"role" "role" PRIMARY KEY NOT NULL,
	"accounts" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
-- Kept exact by the database itself, whichever code path writes users.
INSERT INTO "user_role_counts" ("role", "accounts") SELECT "role", count(*) FROM "users" GROUP BY "role";--> statement-breakpoint
CREATE FUNCTION "count_user_roles"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    UPDATE "user_role_counts" SET "accounts" = 0;
    RETURN NULL;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "user_role_counts" AS c ("role", "accounts") VALUES (NEW."role", 1)
      ON CONFLICT ("role") DO UPDATE SET "accounts" = c."accounts" + 1;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE "user_role_counts" SET "accounts" = "accounts" - 1 WHERE "role" = OLD."role";
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "users_count_roles" AFTER INSERT OR DELETE ON "users" FOR EACH ROW EXECUTE FUNCTION "count_user_roles"();--> statement-breakpoint
CREATE TRIGGER "users_count_role_changes" AFTER UPDATE OF "role" ON "users" FOR EACH ROW WHEN (OLD."role" IS DISTINCT FROM NEW."role") EXECUTE FUNCTION "count_user_roles"();--> statement-breakpoint
CREATE TRIGGER "users_count_roles_truncate" AFTER TRUNCATE ON "users" FOR EACH STATEMENT EXECUTE FUNCTION "count_user_roles"();
