import { describeIsolation } from "../helpers/isolation-suite.ts";
import { createListeningTestApp } from "../helpers/payments.ts";

/** The isolation matrix (tests/helpers/isolation-suite.ts) on the test database. */
describeIsolation(() => createListeningTestApp({ TRUST_PROXY: "1" }));
