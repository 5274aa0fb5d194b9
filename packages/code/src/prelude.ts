/**
 * The JavaScript that runs inside each fresh QuickJS context before the program: it builds the
 * global `tools` (one function per alias, nested by the alias's dots) and `console`, and returns
 * the serializer of the program's result. Everything a program touches is made here, inside the
 * sandbox, from the sandbox's own intrinsics: the host passes in two functions taking and
 * returning strings, nothing else.
 *
 * - a tool function serializes its argument inside (getters run here, under the limits; a
 *   handle object made here becomes its id string), calls the host, and parses the answer: the
 *   value, a frozen handle object `{ handle, summary, count? }`, or a rejection with a
 *   `ToolError` (`name` "ToolError", `code`, `hint`, `message` = `code: hint`);
 * - `console.log/info/warn/error/debug` print one line each (strings as they are, other values
 *   as JSON, else `String(value)`);
 * - the serializer is JSON.stringify as it was before the program ran.
 */
export const PRELUDE = String.raw`(function (hostCall, hostLog, aliasesJson) {
  "use strict";
  const stringify = JSON.stringify;
  const parse = JSON.parse;
  const freeze = Object.freeze;
  const hasOwn = Object.prototype.hasOwnProperty;
  const assign = Object.assign;
  const handles = new WeakSet();
  class ToolError extends Error {
    constructor(code, hint) {
      super(code + ": " + hint);
      this.code = code;
      this.hint = hint;
    }
  }
  Object.defineProperty(ToolError.prototype, "name", { value: "ToolError", writable: true, configurable: true });
  const replacer = (key, value) =>
    typeof value === "object" && value !== null && handles.has(value) ? value.handle : value;
  const decode = (text) => {
    const result = parse(text);
    if (result.ok === false) throw new ToolError(result.error, result.hint);
    if (hasOwn.call(result, "handle")) {
      const handle = { handle: result.handle, summary: result.summary };
      if (result.meta && result.meta.count !== undefined) handle.count = result.meta.count;
      freeze(handle);
      handles.add(handle);
      return handle;
    }
    // A content tool's blocks are its value to a program.
    return hasOwn.call(result, "content") ? result.content : result.value;
  };
  const bind = (alias) =>
    function (args) {
      let json;
      try {
        json = stringify(args === undefined ? {} : args, replacer);
      } catch (error) {
        return Promise.reject(error);
      }
      return hostCall(alias, json === undefined ? "null" : json).then(decode);
    };
  const tools = {};
  for (const alias of parse(aliasesJson)) {
    const segments = alias.split(".");
    let node = tools;
    for (let i = 0; i < segments.length - 1; i++) {
      const segment = segments[i];
      if (!hasOwn.call(node, segment)) node[segment] = {};
      node = node[segment];
    }
    const last = segments[segments.length - 1];
    const fn = bind(alias);
    if (hasOwn.call(node, last)) assign(fn, node[last]);
    node[last] = fn;
  }
  const format = (value) => {
    if (typeof value === "string") return value;
    try {
      const text = stringify(value);
      if (text !== undefined) return text;
    } catch (error) {}
    try {
      return String(value);
    } catch (error) {
      return "[unprintable]";
    }
  };
  const print = function () {
    let line = "";
    for (let i = 0; i < arguments.length; i++) line += (i > 0 ? " " : "") + format(arguments[i]);
    hostLog(line);
  };
  globalThis.tools = tools;
  globalThis.console = { log: print, info: print, warn: print, error: print, debug: print };
  return (value) => stringify(value);
})`;
