// The states of a list or an action: empty, error, success and plain information.
type Tone = "info" | "empty" | "error" | "success" | "warning";

const TONES: Record<Tone, string> = {
  info: "border-sky-200 bg-sky-50 text-sky-950",
  empty: "border-slate-200 bg-slate-50 text-slate-800",
  error: "border-red-200 bg-red-50 text-red-950",
  success: "border-emerald-200 bg-emerald-50 text-emerald-950",
  warning: "border-amber-200 bg-amber-50 text-amber-950",
};

export function Notice({
  tone = "info",
  title,
  children,
  role,
}: {
  tone?: Tone;
  title?: string;
  children?: React.ReactNode;
  role?: "status" | "alert";
}) {
  return (
    <div role={role} className={`rounded-lg border px-4 py-3 text-sm ${TONES[tone]}`}>
      {title && <p className="font-semibold">{title}</p>}
      {children && <div className={title ? "mt-1" : ""}>{children}</div>}
    </div>
  );
}
