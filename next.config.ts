import type { NextConfig } from "next";

const nextConfig: NextConfig = {
  poweredByHeader: false,
  typedRoutes: false,
  // Uploaded scenario files pass through proxy.ts; a month of a large lab is tens of megabytes.
  experimental: { proxyClientMaxBodySize: "64mb" },
};

export default nextConfig;
