/**
 * The page a request is for. Client navigations fetch loader data from `/path.data`
 * (and `/_root.data` for the home page) with a `_routes` parameter; redirects and
 * "come back here" links must use the page's own address.
 */
export function pageUrl(request: Request): URL {
  const url = new URL(request.url);
  url.pathname = url.pathname === "/_root.data" ? "/" : url.pathname.replace(/\.data$/, "");
  url.searchParams.delete("_routes");
  return url;
}

export function pagePath(request: Request): string {
  const url = pageUrl(request);
  return `${url.pathname}${url.search}`;
}
