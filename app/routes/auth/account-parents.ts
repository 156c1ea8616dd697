import type { Route } from "./+types/account-parents";
import { inviteMyParent } from "~/lib/my-parents.server";

/** The student's "My parents" card posts its invitation here (a resource route: no page of its own). */
export const action = ({ request, context }: Route.ActionArgs) => inviteMyParent(context, request);
