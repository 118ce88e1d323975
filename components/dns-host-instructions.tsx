// Plain instructions for adding the TXT record at the DNS hosts people use most.
export function DnsHostInstructions({ fullName, relativeName, zone, value }: { fullName: string; relativeName: string; zone: string; value: string }) {
  const code = (s: string) => <code className="break-all rounded bg-slate-100 px-1 font-mono text-xs">{s}</code>;
  const hosts: Array<{ name: string; steps: React.ReactNode[] }> = [
    {
      name: "Cloudflare",
      steps: [
        <>Open the dashboard, pick {code(zone)}, then DNS → Records → Add record.</>,
        <>Type {code("TXT")}, Name {code(relativeName)}, Content {code(value)}, TTL Auto.</>,
        <>Save. Cloudflare publishes it within a minute or two.</>,
      ],
    },
    {
      name: "Amazon Route 53",
      steps: [
        <>Open Route 53 → Hosted zones → {code(zone)} → Create record.</>,
        <>Record name {code(relativeName)} (the console adds .{zone}), type {code("TXT")}.</>,
        <>Value: the token in double quotes, {code(`"${value}"`)}; TTL 300. Create records.</>,
      ],
    },
    {
      name: "GoDaddy",
      steps: [
        <>My Products → your domain → DNS → Add New Record.</>,
        <>Type {code("TXT")}, Name {code(relativeName)}, Value {code(value)}, TTL 1/2 hour (or the default).</>,
        <>Save. GoDaddy can take up to an hour to publish it.</>,
      ],
    },
    {
      name: "Namecheap",
      steps: [
        <>Domain List → Manage next to {code(zone)} → Advanced DNS → Add New Record.</>,
        <>Type {code("TXT Record")}, Host {code(relativeName)}, Value {code(value)}, TTL Automatic.</>,
        <>Press the green tick to save.</>,
      ],
    },
    {
      name: "Google Cloud DNS",
      steps: [
        <>Network services → Cloud DNS → the zone of {code(zone)} → Add standard.</>,
        <>DNS name {code(relativeName)} (the zone is added), Resource record type {code("TXT")}.</>,
        <>TXT data {code(value)}, TTL 5 minutes. Create.</>,
      ],
    },
  ];
  return (
    <div className="mt-3 space-y-2">
      <p className="text-sm text-slate-700">
        The full name of the record is {code(fullName)}. Most hosts want only the part before your domain in the name field.
      </p>
      {hosts.map((h) => (
        <details key={h.name} className="rounded-lg border border-slate-200 px-4 py-2 open:bg-slate-50">
          <summary className="cursor-pointer py-1 font-medium text-slate-900">{h.name}</summary>
          <ol className="mt-2 list-decimal space-y-1 pb-2 pl-5 text-sm text-slate-800">
            {h.steps.map((s, i) => (
              <li key={i}>{s}</li>
            ))}
          </ol>
        </details>
      ))}
      <p className="text-sm text-slate-700">
        Another host? Add a TXT record with the name and value above. To check it yourself: {code(`dig +short TXT ${fullName}`)}
      </p>
    </div>
  );
}
