// sitemap.xml: the portal's fixed pages and every capability page (endpoint pages follow from them).
// While the database fails (lib/portal/unavailable.ts), the fixed pages alone, at once.
import type { MetadataRoute } from "next";
import { requestOrigin } from "@/lib/portal/request";
import { portalMetadata } from "@/lib/portal/unavailable";
import { getRegistry } from "@/lib/registry";
import { getDb } from "@/lib/server/db";

export const dynamic = "force-dynamic";

const FIXED = ["/", "/capabilities", "/stats", "/docs", "/docs/errors", "/docs/submissions", "/providers/submit"];

const capabilityPaths = portalMetadata(async () => (await getRegistry(await getDb())).capabilities.map((c) => `/capabilities/${c.id}`), [] as string[]);

export default async function sitemap(): Promise<MetadataRoute.Sitemap> {
  const [origin, capabilities] = await Promise.all([requestOrigin(), capabilityPaths({})]);
  return [...FIXED, ...capabilities].map((p) => ({ url: `${origin}${p}` }));
}
