import type { Metadata } from "next";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Capdex", template: "%s · Capdex" },
  description: "Find the best callable HTTP API for a job, ranked by price and observed reliability.",
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-white text-slate-900 antialiased">{children}</body>
    </html>
  );
}
