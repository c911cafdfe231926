import nextVitals from "eslint-config-next/core-web-vitals";
import nextTs from "eslint-config-next/typescript";
import tseslint from "typescript-eslint";

const PURE_CORE = [
  "lib/engine/**",
  "lib/sim/**",
  "lib/reports/**",
  "lib/simulations/what-if/**",
  "lib/sentences/**",
];

export default tseslint.config(
  {
    ignores: [
      "node_modules/**",
      ".next/**",
      ".data/**",
      "lib/generated/**",
      "test-results/**",
      "playwright-report/**",
      "next-env.d.ts",
      "bin/**",
    ],
  },
  ...nextVitals,
  ...nextTs,
  {
    files: ["**/*.ts", "**/*.tsx"],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": [
        "error",
        { checksVoidReturn: { attributes: false } },
      ],
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/consistent-type-definitions": ["error", "type"],
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_" },
      ],
      "import/no-anonymous-default-export": "off",
    },
  },
  {
    // The pure core: no framework, no database, no Node APIs, no clock.
    files: PURE_CORE,
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["next", "next/*", "react", "react-dom", "@prisma/*", "pg", "node:*"],
              message: "The engine, simulator and reports are pure: no I/O or framework imports.",
            },
            {
              group: ["@/lib/data/**", "@/lib/generated/*"],
              message: "The pure core must not touch the data layer.",
            },
          ],
        },
      ],
      "no-restricted-properties": [
        "error",
        { object: "Date", property: "now", message: "Time is an argument (nowSec)." },
        { object: "Math", property: "random", message: "Use the seeded generator passed in." },
      ],
      "no-restricted-globals": ["error", "setTimeout", "setInterval", "fetch"],
    },
  },
);
