// The signed-in user's keys: name, display prefix, created, last used, and a revoke button each.
import type { ApiKeySummary } from "@/lib/auth/keys";
import { formatAgo } from "@/lib/portal/format";
import { revokeKeyAction } from "./actions";

const day = (d: Date) => d.toISOString().slice(0, 10);

export function KeyTable({ keys }: { keys: ApiKeySummary[] }) {
  if (!keys.length) return <p className="text-sm text-slate-600">No keys yet.</p>;
  const now = new Date();
  return (
    <div className="overflow-x-auto">
      <table className="min-w-full text-sm" data-testid="key-table">
        <thead>
          <tr className="text-left text-slate-600">
            <th className="py-2 pr-4 font-medium">Name</th>
            <th className="py-2 pr-4 font-medium">Key</th>
            <th className="py-2 pr-4 font-medium">Created</th>
            <th className="py-2 pr-4 font-medium">Last used</th>
            <th className="py-2 font-medium">
              <span className="sr-only">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <tr key={k.id} className="border-t border-slate-100" data-key-prefix={k.prefix}>
              <td className="py-2 pr-4">{k.name}</td>
              <td className="py-2 pr-4 font-mono text-xs">{k.prefix}…</td>
              <td className="py-2 pr-4">{day(k.createdAt)}</td>
              <td className="py-2 pr-4">{k.lastUsedAt ? formatAgo(k.lastUsedAt, now) : "never"}</td>
              <td className="py-2">
                {k.revokedAt ? (
                  <span className="text-slate-500">revoked {day(k.revokedAt)}</span>
                ) : (
                  <form action={revokeKeyAction}>
                    <input type="hidden" name="keyId" value={k.id} />
                    <button
                      type="submit"
                      aria-label={`Revoke ${k.name} (${k.prefix}…)`}
                      className="rounded-md border border-red-300 px-3 py-1 text-xs font-semibold text-red-800 hover:bg-red-50"
                    >
                      Revoke
                    </button>
                  </form>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
