// Preloaded into a server process by react-production-build.test.ts: once the server has loaded
// React, writes which build it runs to the file named by RECORD_REACT_BUILDS. Only React's
// development build exports captureOwnerStack.
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";

const record = process.env.RECORD_REACT_BUILDS;
const require = createRequire(`${process.cwd()}/`);
const entry = require.resolve("react");
const timer = setInterval(() => {
  const react = require.cache[entry];
  if (!react?.loaded) return;
  writeFileSync(record, "captureOwnerStack" in react.exports ? "development" : "production");
  clearInterval(timer);
}, 20);
timer.unref();
