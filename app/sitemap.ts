// sitemap.xml: the portal's fixed pages and every capability page (endpoint pages follow from them).
import type { MetadataRoute } from "next";
import { requestOrigin } from "@/lib/portal/request";
import { getRegistry } from "@/lib/registry";
import { getDb } from "@/lib/server/db";

export const dynamic = "force-dynamic";

export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const [origin, registry] = await Promise.all([requestOrigin(), getDb().then(getRegistry)]);
  const fixed = ["/", "/capabilities", "/stats", "/docs", "/docs/errors", "/docs/submissions", "/providers/submit"];
  return [...fixed.map((p) => ({ url: `${origin}${p}` })), ...registry.capabilities.map((c) => ({ url: `${origin}/capabilities/${c.id}` }))];
}
