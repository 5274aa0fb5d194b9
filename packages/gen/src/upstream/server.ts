/**
 * upstream: the `server` object that names an upstream MCP server (the runtime's
 * `UpstreamServer`: the same shape in the configuration, in the generated dispatch and at run
 * time, whose `${NAME}` expansion is the runtime's too), its validation, how messages name it,
 * and the `--from-mcp` argument.
 */
import type { UpstreamServer } from "@zcp/runtime/definition";

export type { UpstreamServer };

const STDIO_KEYS = ["command", "args", "env", "cwd"];
const HTTP_KEYS = ["url", "headers"];

/** `value` as an `UpstreamServer`, or what is wrong with it (`at` names it in the message). */
export function upstreamServer(value: unknown, at: string): UpstreamServer | string {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return `${at} must be an object with "command" (stdio) or "url" (Streamable HTTP)`;
  const record = value as Record<string, unknown>;
  const stdio = "command" in record;
  if (stdio === "url" in record)
    return `${at} must have exactly one of "command" (stdio) or "url" (Streamable HTTP)`;
  const known = stdio ? STDIO_KEYS : HTTP_KEYS;
  for (const key of Object.keys(record))
    if (!known.includes(key))
      return `${at}: unknown key "${key}" (known with "${stdio ? "command" : "url"}": ${known.join(", ")})`;
  const nonEmpty = (key: string) =>
    record[key] === undefined || (typeof record[key] === "string" && record[key] !== "")
      ? null
      : `${at}: "${key}" must be a non-empty string`;
  if (stdio) {
    if (typeof record.command !== "string" || record.command === "")
      return `${at}: "command" must be a non-empty string`;
    const cwd = nonEmpty("cwd");
    if (cwd) return cwd;
    if (
      record.args !== undefined &&
      !(Array.isArray(record.args) && record.args.every((arg) => typeof arg === "string"))
    )
      return `${at}: "args" must be an array of strings`;
    const env = stringMap(record.env, `${at}: "env"`);
    if (env) return env;
  } else {
    if (typeof record.url !== "string" || !/^https?:\/\/./.test(record.url))
      return `${at}: "url" must be an http:// or https:// URL`;
    const headers = stringMap(record.headers, `${at}: "headers"`);
    if (headers) return headers;
  }
  return record as unknown as UpstreamServer;
}

function stringMap(value: unknown, at: string): string | null {
  if (value === undefined) return null;
  if (
    typeof value !== "object" ||
    value === null ||
    Array.isArray(value) ||
    !Object.values(value).every((v) => typeof v === "string")
  )
    return `${at} must be an object of strings`;
  return null;
}

/** How the server is named in messages: its URL, or its command line. */
export function describeServer(server: UpstreamServer): string {
  if ("url" in server) return server.url;
  return [server.command, ...(server.args ?? [])].map(quoteWord).join(" ");
}

function quoteWord(word: string): string {
  return /^[\w@%+=:,./${}-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/**
 * The server of `zcp gen --from-mcp <value>`: an http(s) URL, or a command line split into
 * words as a POSIX shell splits it (single and double quotes, backslash escapes; no expansion:
 * `${NAME}` stays a template). null when the line holds no word or an unclosed quote.
 */
export function serverFromArgument(value: string): UpstreamServer | null {
  if (/^https?:\/\//.test(value.trim())) return { url: value.trim() };
  const words = splitWords(value);
  if (words === null || words.length === 0) return null;
  const [command, ...args] = words;
  return args.length > 0 ? { command: command!, args } : { command: command! };
}

function splitWords(line: string): string[] | null {
  const words: string[] = [];
  // Inside quotes, `word` is a string (the opening quote starts one).
  let word: string | null = null;
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote === "'") {
      if (c === "'") quote = null;
      else word = `${word ?? ""}${c}`;
    } else if (quote === '"') {
      if (c === '"') quote = null;
      else if (c === "\\" && i + 1 < line.length && '"\\$`'.includes(line[i + 1]!))
        word = `${word ?? ""}${line[++i]!}`;
      else word = `${word ?? ""}${c}`;
    } else if (c === "'" || c === '"') {
      quote = c;
      word ??= "";
    } else if (c === "\\" && i + 1 < line.length) {
      word = `${word ?? ""}${line[++i]!}`;
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word ?? "") + c;
    }
  }
  if (quote !== null) return null;
  if (word !== null) words.push(word);
  return words;
}
