import * as v from "valibot";
import { emailSchema, personNameSchema, text } from "./account.ts";
import { phoneNumberSchema, toE164 } from "./phone.ts";
import { GUARDIAN_RELATIONS } from "../family.ts";

const relation = v.picklist(GUARDIAN_RELATIONS, `Relation must be one of: ${GUARDIAN_RELATIONS.join(", ")}`);

/**
 * `POST /api/students/{id}/parents`: the parent to invite (their name, how they are related, their
 * mobile number, kept in E.164); `centerId` names the institute where the caller works in several.
 */
export const ParentInviteInput = v.object({
  centerId: v.optional(v.pipe(v.string(), v.uuid("centerId must be an institute's id"))),
  name: personNameSchema,
  relation,
  phone: v.pipe(
    phoneNumberSchema("Please enter the parent's mobile number, e.g. +91 98765 43210", "Mobile number"),
    v.transform((typed: string) => toE164(typed)!),
  ),
});

const code = v.pipe(text("Enter the code we sent"), v.trim(), v.regex(/^\d{6}$/, "The code is the 6 digits we sent"));

/**
 * `POST /api/family/invitations/{token}/answer`: the parent's answer to the consent notice they
 * were shown (its version). Signed in on the invited number, nothing else is needed; otherwise
 * the code sent to that number, and for a number no account holds, the new account's name and e-mail.
 */
export const FamilyAnswerInput = v.object({
  answer: v.picklist(["granted", "refused"], "Answer must be granted or refused"),
  noticeVersion: v.pipe(text("noticeVersion is required"), v.nonEmpty("noticeVersion is required")),
  code: v.optional(code),
  name: v.optional(personNameSchema),
  email: v.optional(emailSchema),
});
