/**
 * compile/validators: whether validating against a schema can change the value, that is, whether
 * a documented coercion (a numeric string to a number, "true"/"false" to a boolean) applies
 * somewhere inside it. A validator that cannot coerce returns its input as it is, and its callers
 * need no copy on write.
 */
import type { JsonValue } from "@zcp/runtime/definition";
import { isSchema, typeList, type Schema } from "./schema.js";
import type { Unit } from "./unit.js";

/** Whether `schema` can coerce. The `$defs` are settled first (`settleDefCoercion`), since they can refer to each other. */
export function coerces(tool: Unit, schema: JsonValue | undefined): boolean {
  if (!isSchema(schema)) return false;
  if (!tool.settled) return coercesNow(tool, schema);
  let known = tool.coerces.get(schema);
  if (known === undefined) tool.coerces.set(schema, (known = coercesNow(tool, schema)));
  return known;
}

function coercesNow(tool: Unit, schema: Schema): boolean {
  const types = typeList(schema);
  if (
    types &&
    !types.includes("string") &&
    (types.includes("number") || types.includes("integer") || types.includes("boolean"))
  )
    return true;
  if (typeof schema.$ref === "string" && tool.defs.get(schema.$ref)?.coerces) return true;
  const properties = schema.properties;
  if (isSchema(properties))
    for (const name in properties) if (subCoerces(tool, properties[name])) return true;
  for (const list of [schema.anyOf, schema.allOf])
    if (Array.isArray(list)) for (const branch of list) if (subCoerces(tool, branch)) return true;
  // The maps of schemas that apply to the value or its properties (not `not`, `if`, `oneOf`,
  // `contains`: tests that never coerce).
  for (const map of [schema.patternProperties, schema.dependentSchemas])
    if (isSchema(map)) for (const key in map) if (subCoerces(tool, map[key])) return true;
  if (Array.isArray(schema.prefixItems))
    for (const item of schema.prefixItems) if (subCoerces(tool, item)) return true;
  for (const sub of [schema.items, schema.additionalProperties, schema.then, schema.else])
    if (subCoerces(tool, sub)) return true;
  return false;
}

function subCoerces(tool: Unit, schema: JsonValue | undefined): boolean {
  if (!isSchema(schema)) return false;
  return tool.settled ? coerces(tool, schema) : coercesNow(tool, schema);
}

/** Decides, by fixpoint, which `$defs` coerce; then marks the unit settled. */
export function settleDefCoercion(tool: Unit): void {
  for (let changed = tool.defs.size > 0; changed;) {
    changed = false;
    for (const def of tool.defs.values()) {
      if (!def.coerces && isSchema(def.schema) && coercesNow(tool, def.schema))
        changed = def.coerces = true;
    }
  }
  tool.settled = true;
}
