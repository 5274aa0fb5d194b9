/** extract: the mutable JSON Schema objects the extract stage builds, and their canonical key order. */

export type Schema = { [keyword: string]: unknown };

/**
 * `orderKeys`: a copy of a schema with keywords in the canonical order, recursively (property
 * order kept). Defined once in the runtime, which orders the provider entries it derives the
 * same way.
 */
export { orderKeys } from "@zcp/runtime/definition";
