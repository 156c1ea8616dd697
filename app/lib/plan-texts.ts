/** The admin plan pages' messages (spec §2 "Price management", §8), verbatim. */
export const PLAN_UPDATED = { title: "Plan Updated", description: "Pricing plan has been updated successfully." };
export const PLAN_CREATED = { title: "Plan Created", description: "The new pricing plan is now available." };
export const LOAD_FAILED = { title: "Failed to load plans", description: "Please refresh or try again." };
export const SAVE_FAILED = { title: "Save failed", fallback: "Failed to save plan" };
export const DELETE_FAILED = { title: "Delete failed", description: "Unable to delete plan." };
export const DELETE_CONFIRM = "Are you sure you want to delete this plan?";
export const PLAN_DELETED = { title: "Plan Deleted", description: "The pricing plan has been deleted." };
export const PLAN_DEACTIVATED = {
  title: "Plan Deactivated",
  description: "This plan has purchases, so it was deactivated instead of deleted.",
};
