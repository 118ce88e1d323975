"use client";
// Re-renders the server page every few seconds (while the tab is visible), so a state that changes
// in the background (a DNS check by the server's job) shows up without a reload.
import { useRouter } from "next/navigation";
import { useEffect } from "react";

export function AutoRefresh({ everyMs }: { everyMs: number }) {
  const router = useRouter();
  useEffect(() => {
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible") router.refresh();
    }, everyMs);
    return () => window.clearInterval(timer);
  }, [router, everyMs]);
  return <p className="text-xs text-slate-600">This page updates by itself every {Math.round(everyMs / 1000)} seconds.</p>;
}
