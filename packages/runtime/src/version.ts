/** This package's version, as its package.json says (a test checks that they agree). */
export const RUNTIME_VERSION = "0.1.0";
