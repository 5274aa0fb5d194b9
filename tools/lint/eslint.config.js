// ESLint over the repository's hand-written TypeScript, run from the repository root
// (`pnpm lint`): typescript-eslint's recommended rules. A leading underscore marks a binding
// that is unused on purpose (a parameter a signature needs, a property destructured away).
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "**/node_modules/**",
      "**/dist/**",
      "**/.work/**",
      "**/zcp.gen/**",
      "**/.scratch-*/**",
      "fixtures/corpus/**",
      "fixtures/diagnostics/src/**",
    ],
  },
  ...tseslint.configs.recommended,
  // Tests read untyped protocol answers and third-party objects: `any` is allowed there.
  { files: ["**/test/**", "**/*.test.ts"], rules: { "@typescript-eslint/no-explicit-any": "off" } },
  {
    rules: {
      "@typescript-eslint/no-unused-vars": [
        "error",
        {
          argsIgnorePattern: "^_",
          varsIgnorePattern: "^_",
          destructuredArrayIgnorePattern: "^_",
          ignoreRestSiblings: true,
        },
      ],
    },
  },
);
