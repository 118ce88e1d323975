// Catalogue imports for operators: `import [url]` runs now (every configured source, or one URL);
// `imports unmapped|map|ignore|runs` works the unmapped queue and shows run summaries.
import { isApiError } from "@/lib/http/errors";
import { ignoreImportedUrl, importSettings, listHeldBack, listUnmapped, mapImportedUrl, runImport, type RunSummary } from "@/lib/imports";
import { listImportRuns } from "@/lib/imports";
import { flag, registerCommand } from "../cli";

export function formatSummary(r: Partial<RunSummary>): string {
  const skipped = Object.entries(r.skipped ?? {})
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
  const heldBack = Object.entries(r.held_back ?? {})
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
  const pages = Object.entries(r.pages_skipped ?? {})
    .map(([k, n]) => `${k} ${n}`)
    .join(", ");
  return [
    `${r.source}: ${r.status}${r.stopped ? ` (stopped: ${r.stopped})` : ""} in ${((r.ms ?? 0) / 1000).toFixed(1)} s`,
    `  seen ${r.seen ?? 0}, new ${r.new ?? 0}, updated ${r.updated ?? 0}, unchanged ${r.unchanged ?? 0}, unmapped ${r.unmapped ?? 0}, delisted ${r.delisted ?? 0}`,
    `  held back: ${heldBack || "none"}`,
    `  skipped: ${skipped || "none"}`,
    `  pages ${r.pages ?? 0} (${((r.bytes ?? 0) / 1024).toFixed(0)} KiB)${pages ? `, pages skipped: ${pages}` : ""}`,
  ].join("\n");
}

registerCommand("import", {
  summary: "import the catalogues of CAPDEX_IMPORT_SOURCES now, or the one at <url>; prints each run's summary",
  usage: "import [url]",
  run: async (args, { open }) => {
    const sources = args[0] ? [args[0]] : importSettings().sources;
    if (!sources.length) {
      console.error("no source: set CAPDEX_IMPORT_SOURCES or give a catalogue URL (GET .../discovery/resources)");
      return 2;
    }
    for (const s of sources) {
      try {
        new URL(s);
      } catch {
        console.error(`not a URL: ${s}`);
        return 2;
      }
    }
    const h = await open();
    try {
      let failed = 0;
      for (const source of sources) {
        const summary = await runImport(h.db, source);
        if (summary.status === "failed") failed += 1;
        console.log(formatSummary(summary));
      }
      return failed ? 1 : 0;
    } finally {
      await h.close();
    }
  },
});

registerCommand("imports", {
  summary: "imported items: unmapped (with the resolver's candidates), held (noise held back, by reason), map <url> <capability_id>, ignore <url>, runs",
  usage: "imports unmapped [--limit N] | held [--reason R] [--limit N] | map <url> <capability_id> | ignore <url> | runs [--limit N]",
  run: async (args, { open }) => {
    const [sub, a, b] = args;
    if (!["unmapped", "held", "map", "ignore", "runs"].includes(sub ?? "") || (sub === "map" && (!a || !b)) || (sub === "ignore" && !a)) {
      console.error("usage: npm run cli -- imports unmapped [--limit N] | held [--reason R] [--limit N] | map <url> <capability_id> | ignore <url> | runs [--limit N]");
      return 2;
    }
    const h = await open();
    try {
      if (sub === "unmapped") {
        const { items, total, byCandidate } = await listUnmapped(h.db, { limit: Number(flag(args, "--limit") ?? 50) || 50 });
        console.log(`${total} unmapped item(s)${total > items.length ? `, newest ${items.length} shown` : ""}`);
        for (const i of items) {
          const candidates = i.candidates.map((c) => `${c.capability_id} (${c.confidence.toFixed(2)})`).join(", ") || "no candidate";
          console.log(`- ${i.url}  [${i.source}]\n    ${i.description.slice(0, 120) || "(no description)"}\n    candidates: ${candidates}`);
        }
        if (byCandidate.length) {
          console.log("nearest capability of the unmapped (a large cluster may show a gap in the registry):");
          for (const c of byCandidate) console.log(`  ${c.capability_id}: ${c.items}`);
        }
      } else if (sub === "held") {
        const { items, total, byReason } = await listHeldBack(h.db, { limit: Number(flag(args, "--limit") ?? 50) || 50, reason: flag(args, "--reason") });
        console.log(`${total} item(s) held back as noise${total > items.length ? `, newest ${items.length} shown` : ""}`);
        for (const i of items) console.log(`- ${i.url}  [${i.source}] ${i.reason}\n    ${i.description.slice(0, 120) || "(no description)"}`);
        if (byReason.length) console.log(`by reason: ${byReason.map((r) => `${r.reason} ${r.items}`).join(", ")}`);
        if (items.length) console.log("an operator's mapping lists one anyway: imports map <url> <capability_id>");
      } else if (sub === "map") {
        const r = await mapImportedUrl(h.db, a, b);
        console.log(`mapped ${a} to ${b}: ${r.listed} listing(s) now${r.pending ? `, ${r.pending} at the source's next run` : ""}`);
      } else if (sub === "ignore") {
        const r = await ignoreImportedUrl(h.db, a);
        console.log(`ignored ${a}: ${r.delisted} endpoint(s) delisted`);
      } else {
        const runs = await listImportRuns(h.db, { limit: Number(flag(args, "--limit") ?? 10) || 10 });
        if (!runs.length) console.log("no import has run yet");
        for (const r of runs) console.log(`${r.startedAt.toISOString()}  ${formatSummary({ ...r.summary, source: r.source, status: r.status as RunSummary["status"] })}`);
      }
      return 0;
    } catch (err) {
      if (isApiError(err)) {
        const suggestions = Array.isArray(err.extras?.suggestions) ? ` (did you mean ${(err.extras!.suggestions as string[]).join(", ")}?)` : "";
        console.error(`${err.code}: ${err.message}${suggestions}`);
        return 1;
      }
      throw err;
    } finally {
      await h.close();
    }
  },
});
