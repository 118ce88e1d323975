// The state of a submission as a small badge.
const STYLES: Record<string, [string, string]> = {
  pending_verification: ["Waiting for DNS record", "bg-amber-100 text-amber-950"],
  pending_capability: ["Waiting for its capability", "bg-sky-100 text-sky-950"],
  verified: ["Listed", "bg-emerald-100 text-emerald-900"],
  expired: ["Expired", "bg-slate-200 text-slate-900"],
  rejected: ["Rejected", "bg-red-100 text-red-900"],
};

export function SubmissionBadge({ status }: { status: string }) {
  const [label, style] = STYLES[status] ?? [status, "bg-slate-100 text-slate-900"];
  return (
    <span className={`rounded-full px-3 py-1 text-sm font-semibold ${style}`} data-testid="submission-status" data-status={status}>
      {label}
    </span>
  );
}
