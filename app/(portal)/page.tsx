import Link from "next/link";
import { getDb } from "@/lib/db";
import { getRegistry } from "@/lib/registry";

export const dynamic = "force-dynamic";

export default async function HomePage() {
  const registry = await getRegistry(await getDb());
  return (
    <main className="mx-auto max-w-5xl p-6">
      <h1 className="text-3xl font-bold">Capdex</h1>
      <p className="mt-2 text-slate-700">Find the best callable HTTP API for a job, ranked by price and observed reliability.</p>
      <p className="mt-4">
        {registry.capabilities.length} capabilities in {registry.categories.length} categories.{" "}
        <Link className="text-blue-700 underline" href="/api">
          API descriptor
        </Link>
      </p>
    </main>
  );
}
