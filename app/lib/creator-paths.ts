/**
 * The creator pages answer both under /creator and /dashboard/creator (spec §2); links stay in
 * whichever family the creator is browsing.
 */
export function creatorPaths(pathname: string) {
  const base = pathname.startsWith("/dashboard/creator") ? "/dashboard/creator" : "/creator";
  return {
    upload: `${base}/upload`,
    contents: `${base}/contents`,
    sales: `${base}/sales`,
    content: (id: string) => (base === "/creator" ? `/creator/contents/${id}` : `/dashboard/creator/content/${id}`),
  };
}
