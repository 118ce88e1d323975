"use client";
// The header's links, marking the current section for screen readers and the eye.
import Link from "next/link";
import { usePathname } from "next/navigation";

const LINKS = [
  { href: "/capabilities", label: "Capabilities" },
  { href: "/providers/submit", label: "Submit" },
  { href: "/stats", label: "Stats" },
  { href: "/docs", label: "Docs" },
  { href: "/account", label: "Account" },
];

function isCurrent(pathname: string, href: string) {
  if (href === "/providers/submit") return pathname.startsWith("/providers");
  return pathname === href || pathname.startsWith(`${href}/`);
}

export function NavLinks() {
  const pathname = usePathname() ?? "/";
  return (
    <ul className="-mx-2 flex w-full items-center justify-between text-sm font-medium sm:mx-0 sm:w-auto sm:justify-end sm:gap-1">
      {LINKS.map((l) => {
        const current = isCurrent(pathname, l.href);
        return (
          <li key={l.href}>
            <Link
              href={l.href}
              aria-current={current ? "page" : undefined}
              className={`inline-block rounded-md px-2 py-2 sm:px-3 hover:bg-slate-100 ${current ? "bg-slate-100 text-slate-950" : "text-slate-700"}`}
            >
              {l.label}
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
