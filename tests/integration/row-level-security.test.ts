import { describeRowLevelSecurity } from "../helpers/row-level-security-suite.ts";
import { createTestApp } from "../helpers/app.ts";

/** Row-level security (tests/helpers/row-level-security-suite.ts) on the test database: PGlite or PostgreSQL. */
describeRowLevelSecurity(() => createTestApp());
