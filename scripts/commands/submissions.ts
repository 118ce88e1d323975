// `npm run cli -- submissions list|approve|reject`: the operator's view of provider submissions.
import { flag, registerCommand } from "../cli";
import { approveSubmission, listSubmissionsForOperator, rejectSubmission } from "@/lib/submissions/operator";

const USAGE = "submissions list [--status S] [--limit N] | approve <id> | reject <id> [--note TEXT]";
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const STATES = ["pending_verification", "verified", "expired", "rejected"];

registerCommand("submissions", {
  summary: "provider submissions: list them, approve (list without DNS proof) or reject one",
  usage: USAGE,
  run: async (args, { open }) => {
    const [action, id] = args;
    if (action === "list") {
      const status = flag(args, "--status");
      const limit = Number(flag(args, "--limit") ?? 50);
      if (status && !STATES.includes(status)) throw new Error(`--status takes one of ${STATES.join(", ")}`);
      if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw new Error("--limit takes a whole number from 1 to 1000");
      const h = await open();
      try {
        const rows = await listSubmissionsForOperator(h.db, { status, limit });
        for (const s of rows) {
          const reason = (s.lastCheck as { reason?: string } | null)?.reason ?? "-";
          console.log(
            [s.id, s.status.padEnd(20), s.createdAt.toISOString(), s.capabilityId, s.endpointUrl, s.providerName, s.contactEmail, reason].join("  "),
          );
        }
        console.log(`${rows.length} submission(s)`);
      } finally {
        await h.close();
      }
      return 0;
    }
    if (action !== "approve" && action !== "reject") {
      console.error(`usage: npm run cli -- ${USAGE}`);
      return 2;
    }
    if (!id || !UUID.test(id)) throw new Error(`${action} takes a submission id (UUID)`);
    const h = await open();
    try {
      const result = action === "approve" ? await approveSubmission(h.db, id) : await rejectSubmission(h.db, id, flag(args, "--note") ?? "");
      if (!result.ok) {
        console.error(`not ${action}d: ${result.message}`);
        return 1;
      }
      console.log(`${id} is now ${result.submission.status}${result.endpointId ? ` (endpoint ${result.endpointId})` : ""}`);
      return 0;
    } finally {
      await h.close();
    }
  },
});
