// The heading block at the top of a page.
export function PageTitle({ title, lead, children }: { title: string; lead?: React.ReactNode; children?: React.ReactNode }) {
  return (
    <div className="mb-6">
      <h1 className="text-2xl font-bold tracking-tight text-slate-950 sm:text-3xl">{title}</h1>
      {lead && <p className="mt-2 max-w-3xl text-slate-700">{lead}</p>}
      {children}
    </div>
  );
}
