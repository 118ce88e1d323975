// The shell of every page: header navigation, main content, footer. System fonts only (no downloads).
import type { Metadata, Viewport } from "next";
import { SiteFooter } from "@/components/site-footer";
import { SiteHeader } from "@/components/site-header";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Capdex", template: "%s · Capdex" },
  description: "Find the best callable HTTP API for a job, ranked by price and observed reliability.",
  // Social previews (Open Graph, and the summary card for X); pages add their own title.
  openGraph: {
    siteName: "Capdex",
    type: "website",
    title: "Capdex: callable HTTP APIs, ranked by how they really work",
    description: "Ask for a capability or describe a need; get the endpoints that serve it, ranked by observed reliability, latency and price (x402).",
  },
  twitter: { card: "summary" },
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="flex min-h-screen flex-col bg-white text-slate-900 antialiased">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded-md focus:bg-white focus:px-3 focus:py-2 focus:shadow"
        >
          Skip to content
        </a>
        <SiteHeader />
        <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6">
          {children}
        </main>
        <SiteFooter />
      </body>
    </html>
  );
}
