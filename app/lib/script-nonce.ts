import { createContext, useContext } from "react";

/**
 * This response's Content-Security-Policy nonce, for the inline scripts the root layout writes
 * itself (React Router's own scripts take it from `<ServerRouter nonce>`). Given on the server
 * only: the browser has no use for it once the page is parsed, and a page kept as bytes has none
 * (its scripts are allowed by their hashes, server/pages/kept-pages.ts).
 */
export const ScriptNonce = createContext<string | undefined>(undefined);

export function useScriptNonce(): string | undefined {
  return useContext(ScriptNonce);
}
