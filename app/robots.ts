// robots.txt: the portal is public; the API, accounts and submission pages are not for crawlers.
import type { MetadataRoute } from "next";
import { requestOrigin } from "@/lib/portal/request";

export const dynamic = "force-dynamic";

export default async function robots(): Promise<MetadataRoute.Robots> {
  return {
    rules: { userAgent: "*", allow: "/", disallow: ["/api/", "/account", "/signin", "/providers/submissions/", "/providers/claim/"] },
    sitemap: `${await requestOrigin()}/sitemap.xml`,
  };
}
