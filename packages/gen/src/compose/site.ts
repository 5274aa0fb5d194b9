/** compose: where in the configuration file a diagnostic about a composed package points. */
import type { Config } from "../config.js";
import { readSourceText } from "../scan/source-text.js";

export interface ConfigSite {
  readonly file: string;
  readonly line: number;
  readonly column: number;
}

/**
 * The configuration file's text, read once per configuration (a `Config` stands for one reading
 * of the file: a changed file is a new `Config`), however many diagnostics point into it.
 */
const TEXTS = new WeakMap<Config, string>();

/**
 * The position of `name`'s entry in the configuration's `"registries"` (its first quoted
 * occurrence after the key), or line 1 of the file when it is not found there.
 */
export function entrySite(config: Config, name: string): ConfigSite {
  let text = TEXTS.get(config);
  if (text === undefined) TEXTS.set(config, (text = readSourceText(config.file) ?? ""));
  const key = text.indexOf('"registries"');
  const at = key < 0 ? -1 : text.indexOf(JSON.stringify(name), key);
  if (at < 0) return { file: config.file, line: 1, column: 1 };
  const before = text.slice(0, at);
  const line = before.split("\n").length;
  return { file: config.file, line, column: at - before.lastIndexOf("\n") };
}
