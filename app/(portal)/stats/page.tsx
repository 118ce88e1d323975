// Live statistics: server-rendered from getStats (the function behind GET /api/stats), then kept
// fresh by a small client island that polls the API.
import type { Metadata } from "next";
import { PageTitle } from "@/components/page-title";
import { StatsDashboard } from "@/components/stats-dashboard";
import { ImportRuns } from "@/components/import-runs";
import { getDb } from "@/lib/server/db";
import { getRegistry } from "@/lib/registry";
import { getStats } from "@/lib/stats";
import { portalPage } from "@/lib/portal/unavailable";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Live stats" };

export default portalPage("/stats", async function StatsPage() {
  const db = await getDb();
  const [stats, registry] = await Promise.all([getStats(db), getRegistry(db)]);
  // Only the names the dashboard shows, not the whole registry, go to the browser.
  const titles: Record<string, string> = {};
  for (const t of stats.top_capabilities) titles[t.capability_id] = registry.byId.get(t.capability_id)?.title ?? t.capability_id;
  for (const c of registry.categories) titles[`category:${c.id}`] = c.title;
  return (
    <>
      <PageTitle
        title="Live stats"
        lead={
          <>
            The public figures of the Capdex network, as{" "}
            {/* a JSON document, not a page */}
            {/* eslint-disable-next-line @next/next/no-html-link-for-pages */}
            <a className="underline" href="/api/stats">
              GET /api/stats
            </a>{" "}
            returns them.
          </>
        }
      />
      <StatsDashboard initial={stats} titles={titles} />
      <ImportRuns runs={stats.imports} />
    </>
  );
});
