import type { RouterContextProvider } from "react-router";
import { getViewer } from "./session.server";
import type { Viewer } from "./viewer";

/** The viewer in the shape every area layout renders (only called behind a role guard). */
export function areaViewer(context: Readonly<RouterContextProvider>): Viewer {
  const user = getViewer(context)!;
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    role: user.role,
    avatarUrl: user.avatarKey ? `/media/${user.avatarKey}` : null,
  };
}
