// ESLint for the site's scripts (site/**/*.js), run by `make test` (npm run lint).
// One style: const/let (no var), strict equality, no unused names. The page scripts are classic
// scripts (they open from file:// too), each an IIFE that shares at most one window global;
// sw.js is the service worker.
"use strict";

const js = require("@eslint/js");
const globals = require("globals");

module.exports = [
  // Generated at build time by rules_kb/notes/assets.py (git-ignored; older builds wrote them here).
  { ignores: ["site/assets/link-grammar.js", "site/assets/link-data.js"] },
  {
    files: ["site/**/*.js"],
    ...js.configs.recommended,
  },
  {
    files: ["site/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "script",
      globals: { ...globals.browser },
    },
    rules: {
      "no-var": "error",
      "prefer-const": "error",
      eqeqeq: ["error", "always", { null: "ignore" }],  // == null: a regex group unmatched is undefined
      "no-unused-vars": ["error", { args: "none" }],
    },
  },
  {
    files: ["site/sw.js"],
    languageOptions: { globals: { ...globals.serviceworker } },
  },
];
