import type { ShouldRevalidateFunctionArgs } from "react-router";

/**
 * React Router keeps a page's data after an action answered 4xx, but a 409 says the page is
 * stale (a second click, or another desk, got there first): read it again so the person sees
 * what was done beside the message, not the form they can no longer use.
 */
export function revalidateOnConflict({ actionStatus, defaultShouldRevalidate }: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 || defaultShouldRevalidate;
}
