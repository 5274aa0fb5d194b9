/**
 * `--view <name>?<field>=<value>&…`: a named view on an endpoint of its own over HTTP
 * (`/mcp/<name>`), e.g. `--view review?stage=review` or
 * `--view search?profile=discover&groups=sheets,charts`. Fields: `profile`, `groups`,
 * `exclude-groups` (comma-separated) and `stage`; each narrows what the server serves, as the
 * flags of the same names do for the default view. No I/O: `parseView` answers the view or the
 * usage error; `checkStages` checks stage names against the registry once it is loaded.
 */
import type { ToolDefinition } from "@zcp/runtime";

export interface ViewArg {
  readonly name: string;
  readonly profile?: string;
  readonly groups?: readonly string[];
  readonly excludeGroups?: readonly string[];
  readonly stage?: string;
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/;
const FIELDS = ["profile", "groups", "exclude-groups", "stage"];

/** The view a `--view` value names, or the usage error. */
export function parseView(text: string): ViewArg | string {
  const query = text.indexOf("?");
  const name = query === -1 ? text : text.slice(0, query);
  if (!NAME.test(name))
    return `--view: the name "${name.slice(0, 64)}" must be 1 to 64 letters, digits, - or _`;
  const fields = new URLSearchParams(query === -1 ? "" : text.slice(query + 1));
  const view: { -readonly [K in keyof ViewArg]: ViewArg[K] } = { name };
  for (const [field, value] of fields) {
    if (!FIELDS.includes(field))
      return `--view ${name}: unknown field "${field.slice(0, 64)}" (known: ${FIELDS.join(", ")})`;
    if (fields.getAll(field).length > 1) return `--view ${name}: ${field} is given twice`;
    if (value === "") return `--view ${name}: ${field} is empty`;
    if (field === "profile") view.profile = value;
    else if (field === "stage") view.stage = value;
    else {
      const list = nameList(`--view ${name}: ${field}`, value);
      if (typeof list === "string") return list;
      if (field === "groups") view.groups = list;
      else view.excludeGroups = list;
    }
  }
  return view;
}

/** The names of a comma-separated list, or the usage error when one is empty. */
export function nameList(option: string, text: string): string[] | string {
  const list = text.split(",").map((item) => item.trim());
  return list.some((item) => item === "") ? `${option} has an empty name` : list;
}

/**
 * The usage error for the first group that no tool of the registry is in (`--groups`,
 * `--exclude-groups`, or a view's), else undefined: a misspelt group would serve nothing, or
 * exclude nothing.
 */
export function checkGroups(
  tools: readonly ToolDefinition[],
  groups: readonly { readonly option: string; readonly groups: readonly string[] | undefined }[],
): string | undefined {
  const known = [...new Set(tools.flatMap((tool) => tool.groups))].sort();
  for (const { option, groups: given } of groups)
    for (const group of given ?? [])
      if (!known.includes(group))
        return `${option}: unknown group "${group.slice(0, 64)}" (the registry's groups: ${known.length > 0 ? known.join(", ") : "none"})`;
  return undefined;
}

/**
 * The usage error for the first stage that no tool of the registry declares (`--stage`, or a
 * view's), else undefined: a misspelt stage would otherwise serve the tools without stages only.
 */
export function checkStages(
  tools: readonly ToolDefinition[],
  stages: readonly { readonly option: string; readonly stage: string | undefined }[],
): string | undefined {
  const known = [...new Set(tools.flatMap((tool) => tool.stages))].sort();
  for (const { option, stage } of stages)
    if (stage !== undefined && !known.includes(stage))
      return `${option}: unknown stage "${stage.slice(0, 64)}" (the registry's stages: ${known.length > 0 ? known.join(", ") : "none"})`;
  return undefined;
}
