// The submission wizard: endpoint, pricing, contact; then the DNS step on the submission's own page.
import type { Metadata } from "next";
import { PageTitle } from "@/components/page-title";
import { SubmitWizard } from "@/components/submit-wizard";
import { getDb } from "@/lib/db";
import { firstParam, type SearchParams } from "@/lib/portal/params";
import { getRegistry } from "@/lib/registry";
import { HTTP_METHODS } from "@/lib/schemas/submit";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Submit an endpoint" };

export default async function SubmitPage({ searchParams }: { searchParams: Promise<SearchParams> }) {
  const sp = await searchParams;
  const registry = await getRegistry(await getDb());
  const wanted = firstParam(sp.capability) ?? "";
  const capabilities = registry.capabilities.map((c) => ({ id: c.id, title: c.title, category: c.categoryId }));
  const categories = Object.fromEntries(registry.categories.map((c) => [c.id, c.title]));
  return (
    <>
      <PageTitle
        title="Submit an endpoint"
        lead="List your HTTP API under a capability. Three short steps, then you prove you control the domain with one DNS TXT record, and the endpoint is listed."
      />
      <SubmitWizard methods={HTTP_METHODS} capabilities={capabilities} categories={categories} initialCapability={registry.byId.has(wanted) ? wanted : ""} />
    </>
  );
}
