// Capability proposals for operators: `proposals suggest` groups the unmapped import queue into
// proposals; `list`, `accept`, `merge` and `reject` decide them (lib/proposals, docs/proposals.md).
import { isApiError } from "@/lib/http/errors";
import { acceptProposal, mergeProposal, rejectProposal } from "@/lib/proposals/decide";
import { listProposals, suggestProposals } from "@/lib/proposals";
import { flag, registerCommand } from "../cli";

const USAGE =
  "proposals suggest | list [--status open|accepted|rejected|merged] | accept <id> [--as new.id] [--title T] [--note N] | merge <id> --into existing.id [--note N] | reject <id> [--note N]";

registerCommand("proposals", {
  summary: "capability proposals: suggest (group the unmapped queue), list, accept, merge, reject (<id>: the proposal's UUID or its open capability id)",
  usage: USAGE,
  run: async (args, { open }) => {
    const [sub, ref] = args;
    const needsRef = ["accept", "merge", "reject"].includes(sub ?? "");
    if (!["suggest", "list", "accept", "merge", "reject"].includes(sub ?? "") || (needsRef && (!ref || ref.startsWith("--"))) || (sub === "merge" && !flag(args, "--into"))) {
      console.error(`usage: npm run cli -- ${USAGE}`);
      return 2;
    }
    const by = `cli:${process.env.USER ?? "operator"}`;
    const note = flag(args, "--note") ?? null;
    const h = await open();
    try {
      if (sub === "suggest") {
        const r = await suggestProposals(h.db);
        console.log(`${r.groups.length} group(s) from the unmapped queue: ${r.created} new, ${r.updated} updated, ${r.removed} removed`);
        for (const g of r.groups) console.log(`  ${g.id}: ${g.listings} listing(s) on ${g.hosts} host(s)`);
      } else if (sub === "list") {
        const { proposals, total } = await listProposals(h.db, { status: flag(args, "--status") ?? "open" });
        console.log(`${total} ${flag(args, "--status") ?? "open"} proposal(s)`);
        for (const p of proposals) {
          console.log(`- ${p.id}  (${p.proposal_id}, ${p.source})  ${p.title}\n    ${p.description.slice(0, 140)}`);
          for (const l of p.listings) console.log(`    ${l.source}: ${l.url}`);
          if (p.decision) console.log(`    decided: ${p.status} ${p.decision.capability_id ?? ""} ${p.decision.note ?? ""}`.trimEnd());
        }
      } else if (sub === "accept" || sub === "merge") {
        const d =
          sub === "accept"
            ? await acceptProposal(h.db, ref, { by, note, as: flag(args, "--as"), title: flag(args, "--title") })
            : await mergeProposal(h.db, ref, { by, note, into: flag(args, "--into")! });
        console.log(`${sub === "accept" ? "accepted as" : "merged into"} ${d.capabilityId}`);
        console.log(`  import items: ${d.items.listed} listed, ${d.items.pending} at the source's next run`);
        console.log(`  submissions: ${d.submissions.listed} listed, ${d.submissions.pending} waiting for their DNS record, ${d.submissions.failed} not listed`);
      } else {
        const r = await rejectProposal(h.db, ref, { by, note });
        console.log(`rejected ${r.proposal.capabilityId}; ${r.submissionsRejected} waiting submission(s) closed`);
      }
      return 0;
    } catch (err) {
      if (isApiError(err)) {
        console.error(`error: ${err.code}: ${err.message}`);
        return 1;
      }
      throw err;
    } finally {
      await h.close();
    }
  },
});
