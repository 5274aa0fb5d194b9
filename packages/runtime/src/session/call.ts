/**
 * The call pipeline of a session: arguments (nesting bounded, defaults merged, OpenAI
 * strict-mode nulls dropped) → the generated validator → approval → handle arguments →
 * dispatch (in process or through the executor, with a context, an abort signal and a time
 * limit) → the result shaped inline or as a handle. Errors are values. The steps that can
 * finish synchronously do, so a small tool costs little more than its own call.
 *
 * A call answers `timeout` or `cancelled` at once, but a tool cannot be stopped from outside:
 * a call that did not finish synchronously reports apart when its tool has stopped, so that
 * the session keeps its concurrency slot until then.
 */
import { CONTEXT_BRAND, HANDLE_BRAND } from "../definition/brands.js";
import { Pending, type CallOptions } from "./call-types.js";
import { clip } from "../results/clip.js";
import type { CallerIdentity, ToolContext } from "../codegen/context.js";
import { tooDeepAt } from "./depth.js";
import type { Handle } from "../definition/brands.js";
import { jsonData } from "./json-data.js";
import { DEFAULT_MAX_ARGUMENT_DEPTH, DEFAULT_MAX_RESULT_BYTES, resultTooLarge } from "./limits.js";
import type { HandleIdForm } from "../handles/store.js";
import type { Caller, ExecutedCall, SessionHost } from "./host.js";
import { setOwn } from "../definition/own.js";
import type { JsonValue, ToolDefinition } from "../definition/registry.js";
import { failure, type CallError, type CallResult, type HandleMeta } from "../results/result.js";
import { ContentError, readContent } from "../results/content.js";
import { defaultSummary, unwrapSummary } from "./summary.js";
import { fitsBudget, resultBudget, withFirstPage } from "./result-budget.js";
import { countText } from "../handles/text.js";
import { toolErrorOf } from "./tool-error.js";
import { askMethods } from "./input.js";
import { exposedHint, systemErrorHint } from "./exposed-error.js";
import type { ValidationResult, Validator } from "../codegen/validate.js";

const DEFAULT_TIMEOUT_MS = 30_000;
/** Characters of an error's path (and hint) echoed back at most. */
const MAX_PATH = 1024;

type Outcome = { value: unknown } | CallError;

const CANCELLED = Object.freeze(failure("cancelled", "the call was cancelled"));
/** What a call of a closed session answers. */
const SESSION_CLOSED = Object.freeze(failure("cancelled", "the session is closed"));

/** What a call of a name no tool has answers (no tool is named by the runtime or the view). */
export function unknownTool(name: string): CallError {
  return failure(
    `unknown:${clip(name)}`,
    "no tool by that name; list the tools to see what exists",
  );
}

/** What a call of a tool the session may not call answers. */
export function forbiddenTool(tool: ToolDefinition): CallError {
  return failure(`forbidden:${tool.alias}`, "the tool is not available in this session");
}

/**
 * A call's arguments as an object of named parameters (absent: none), or the failure to
 * answer. The properties are the caller's: a key `__proto__` is an own property.
 */
export function namedArguments(
  input: unknown,
): { readonly args: { [name: string]: unknown } } | CallError {
  const args = input ?? {};
  if (typeof args !== "object" || Array.isArray(args))
    return failure("invalid:$", "arguments must be an object of named parameters");
  return { args: args as { [name: string]: unknown } };
}

/** What the calls of a session closed by `closing` answer: `cancelled`, with the reason given to `close`. */
export function closedAnswer(closing: AbortSignal): CallError {
  const reason: unknown = closing.reason;
  return reason instanceof Error && reason.message !== SESSION_CLOSED.hint
    ? failure("cancelled", reason.message)
    : SESSION_CLOSED;
}

export class CallPipeline {
  constructor(
    private readonly host: SessionHost,
    private readonly caller: Caller,
    /** Aborts when the session closes: running tools are stopped, no new one starts. */
    private readonly closing: AbortSignal,
    /** The form of the handle ids the session's results get. */
    private readonly handleIds: HandleIdForm = "short",
  ) {}

  /** Runs one call of `tool` (exposure and concurrency are the session's to check). */
  run(tool: ToolDefinition, input: unknown, options: CallOptions): CallResult | Pending {
    const named = namedArguments(input);
    if (!("args" in named)) return named;
    const maxDepth = this.host.options.maxArgumentDepth ?? DEFAULT_MAX_ARGUMENT_DEPTH;
    const merged = mergeArguments(tool, named.args, maxDepth);
    if (typeof merged === "string") return tooDeepFailure(merged, maxDepth);
    const validator = this.host.generated.validators[tool.id];
    if (!validator)
      return failure(`unknown:${tool.alias}`, "the tool has no validator; regenerate the registry");
    const checked = validateDroppingStrictNulls(validator, merged);
    // A path names the caller's keys: cut, so that no answer grows with what was sent.
    if (!checked.ok) return failure(clip(checked.error, MAX_PATH), clip(checked.hint, MAX_PATH));
    const valid = checked.value as { [name: string]: unknown };
    if (tool.flags.includes("approval"))
      return chain(
        this.approved(tool, valid).then((yes) =>
          yes
            ? this.withHandles(tool, valid, options)
            : failure("approval_required", "this tool needs a person's approval before it runs"),
        ),
      );
    return this.withHandles(tool, valid, options);
  }

  private async approved(
    tool: ToolDefinition,
    args: { [name: string]: unknown },
  ): Promise<boolean> {
    const approve = this.host.options.approve;
    return approve !== undefined && (await approve(tool, args, this.caller));
  }

  /** Resolves the handle arguments (when the tool takes any), then executes. */
  private withHandles(
    tool: ToolDefinition,
    args: { [name: string]: unknown },
    options: CallOptions,
  ): CallResult | Pending {
    if (Object.keys(tool.handleParams).length === 0) return this.execute(tool, args, options);
    return chain(
      this.resolveHandles(tool, args).then((resolved) =>
        "error" in resolved ? resolved.error : this.execute(tool, resolved.args, options),
      ),
    );
  }

  private execute(
    tool: ToolDefinition,
    args: { [name: string]: unknown },
    options: CallOptions,
  ): CallResult | Pending {
    const outcome = this.dispatch(tool, args, options);
    if (outcome instanceof Pending) {
      const answer = outcome.answer.then((done) =>
        "error" in done ? done : this.shape(tool, done.value, options),
      );
      return new Pending(answer, outcome.stopped);
    }
    if ("error" in outcome) return outcome;
    const shaped = this.shape(tool, outcome.value, options);
    return shaped instanceof Promise ? new Pending(shaped, shaped) : shaped;
  }

  /** Replaces handle ids by the `Handle`s they name, in this session, of the right kind. */
  private async resolveHandles(
    tool: ToolDefinition,
    args: { [name: string]: unknown },
  ): Promise<{ args: { [name: string]: unknown } } | { error: CallError }> {
    const names = Object.keys(tool.handleParams);
    const out = { ...args };
    for (const name of names) {
      const id = args[name];
      if (typeof id !== "string") continue;
      const kind = tool.handleParams[name]!;
      const found = await this.host.handles.get(
        this.caller.id,
        id,
        kind === "*" ? undefined : kind,
      );
      if (isFailure(found)) return { error: found };
      // An own property even for a parameter named `__proto__` (assignment would set the prototype).
      setOwn(out, name, {
        [HANDLE_BRAND]: found.kind,
        id: found.id,
        kind: found.kind,
        value: found.value,
      } satisfies Handle);
    }
    return { args: out };
  }

  /**
   * Runs the tool with a context, a time limit and cancellation; what it throws stays here.
   * A tool that answers synchronously is done at once: no timer, no listener, and no abort
   * controller unless it takes the context (an `AbortController` costs more than a small tool).
   * Through an executor every call is asynchronous and gets a real context.
   */
  private dispatch(
    tool: ToolDefinition,
    args: { [name: string]: unknown },
    options: CallOptions,
  ): Outcome | Pending<Outcome> {
    const executor = this.host.options.executor;
    const dispatcher = this.host.generated.dispatch[tool.id];
    if (!executor && !dispatcher)
      return failure(
        `unknown:${tool.alias}`,
        "the tool has no dispatcher; regenerate the registry",
      );
    if (options.signal?.aborted) return CANCELLED;
    if (this.closing.aborted) return closedAnswer(this.closing);
    const controller = executor || tool.call.context !== null ? new AbortController() : null;
    const context = controller ? this.context(controller.signal, options) : IDLE_CONTEXT;
    const timeoutMs = options.timeoutMs ?? this.host.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const start = executor ? new TimeLimitStart() : undefined;
    let returned: unknown;
    try {
      returned = start
        ? executor!.execute(
            tool,
            args,
            context,
            start.call(timeoutMs, this.host.options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES),
          )
        : dispatcher!(args, context);
    } catch (error) {
      return this.failed(error, tool);
    }
    if (!isThenable(returned)) return { value: returned };
    return this.awaitTool(tool, returned, controller, options, timeoutMs, start);
  }

  /**
   * The answer of a tool that returned a promise: its value, or `timeout`/`cancelled` as soon
   * as the time limit passes, the caller's signal aborts or the session closes (the tool's
   * signal aborts then). `stopped` settles when the tool's promise does, whichever came first.
   */
  private awaitTool(
    tool: ToolDefinition,
    returned: PromiseLike<unknown>,
    controller: AbortController | null,
    options: CallOptions,
    timeoutMs: number,
    start: TimeLimitStart | undefined,
  ): Pending<Outcome> {
    const closing = this.closing;
    let answered!: (outcome: Outcome) => void;
    const answer = new Promise<Outcome>((resolve) => (answered = resolve));
    let settled = false;
    const settle = (outcome: Outcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onCancel);
      closing.removeEventListener("abort", onClose);
      answered(outcome);
    };
    const stop = (reason: string, outcome: CallError) => {
      controller?.abort(new Error(reason));
      settle(outcome);
    };
    let timer: NodeJS.Timeout | undefined;
    const arm = () => {
      if (settled) return;
      timer = setTimeout(
        () => stop("timeout", failure("timeout", `the tool did not finish within ${timeoutMs} ms`)),
        timeoutMs,
      );
    };
    if (start) start.whenStarted(arm);
    else arm();
    const onCancel = () => stop("cancelled", CANCELLED);
    const onClose = () => {
      const closed = closedAnswer(closing);
      stop(closed.hint, closed);
    };
    options.signal?.addEventListener("abort", onCancel, { once: true });
    closing.addEventListener("abort", onClose, { once: true });
    // Aborted while the tool's synchronous part ran (the tool, or code it called, aborted it):
    // no abort event comes any more, so answer now instead of at the time limit.
    if (options.signal?.aborted) onCancel();
    else if (closing.aborted) onClose();
    const stopped = Promise.resolve(returned).then(
      (value) => settle({ value }),
      (error: unknown) => settle(this.failed(error, tool)),
    );
    return new Pending(answer, stopped);
  }

  /**
   * What a throw answers: a `ToolError`'s own code and hint (a declared error type's too: its
   * dispatcher made it one), else `exec:error` (reported), with what `exposeError` tells of it.
   */
  private failed(error: unknown, tool: ToolDefinition): CallError {
    const own = toolErrorOf(error);
    if (own) return failure(own.code, own.hint);
    const { onToolError, exposeError } = this.host.options;
    (onToolError ?? defaultToolError)(error, tool, this.caller);
    return failure(
      "exec:error",
      exposedHint(exposeError ?? systemErrorHint, error, tool, this.caller),
    );
  }

  private context(signal: AbortSignal, options: CallOptions): ToolContext {
    return {
      [CONTEXT_BRAND]: true,
      sessionId: this.caller.id,
      signal,
      config: this.host.options.config,
      caller: options.caller ?? ANONYMOUS,
      progress: (done, total, message) => options.onProgress?.(done, total, message),
      log: (level, message) => options.onLog?.(level, message),
      ...askMethods(options.input, signal),
    };
  }

  /**
   * Inline, handle, or (`auto`) inline when it fits the call's token budget or `options.inline`
   * says so, else a handle with its first page: by the tool's output mode.
   */
  private shape(
    tool: ToolDefinition,
    returned: unknown,
    options: CallOptions,
  ): CallResult | Promise<CallResult> {
    const { value, summary } = unwrapSummary(returned);
    // Checked and measured before it is stringified: a Map would go out as `{}`, and a result
    // too large is refused without making its JSON. A tool's worker checks the same way.
    const data = jsonData(value ?? null);
    if ("refused" in data) {
      (this.host.options.onToolError ?? defaultToolError)(
        new TypeError(data.refused),
        tool,
        this.caller,
      );
      return failure("exec:error", data.refused);
    }
    const tooLarge = resultTooLarge(
      data.bytes,
      this.host.options.maxResultBytes ?? DEFAULT_MAX_RESULT_BYTES,
    );
    if (tooLarge) return tooLarge;
    if (tool.content !== undefined) return this.content(tool, value);
    const json = JSON.stringify(value ?? null);
    // Plain JSON data (Dates as strings, no undefined), as inline values go out; the store keeps its own JSON.
    const plain = JSON.parse(json) as JsonValue;
    if (tool.outputMode === "scalar") return { ok: true, value: plain };
    if (tool.outputMode === "handle") return this.store(tool, value, summary, plain, undefined);
    const budget = resultBudget(
      tool.maxResultTokens,
      this.host.options.maxResultTokens,
      options.maxResultTokens,
    );
    if (typeof budget !== "number") return budget;
    if (options.inline === true || fitsBudget(plain, json, data.bytes, budget))
      return { ok: true, value: plain };
    return this.store(tool, value, summary, plain, budget);
  }

  /** A content tool's blocks (never a handle: gen keeps such a tool `scalar`), or `exec:error`. */
  private content(tool: ToolDefinition, value: unknown): CallResult {
    try {
      return { ok: true, content: readContent(tool.content!, value) };
    } catch (error) {
      (this.host.options.onToolError ?? defaultToolError)(error, tool, this.caller);
      const why = error instanceof ContentError ? error.message : "it cannot be read";
      return failure("exec:error", `the tool's content is not valid: ${why}`);
    }
  }

  /** Keeps the value as a handle; with a `budget`, its first page goes inline with it. */
  private async store(
    tool: ToolDefinition,
    value: unknown,
    summary: string | null,
    plain: JsonValue,
    budget: number | undefined,
  ): Promise<CallResult> {
    const handle = await this.host.handles.create(
      this.caller.id,
      tool.handleKind,
      value,
      summary ?? defaultSummary(value),
      this.handleIds,
    );
    if (isFailure(handle)) return handle;
    const text = typeof plain === "string" ? countText(plain) : undefined;
    const meta: HandleMeta = {
      kind: handle.kind,
      size: handle.size,
      ttl: this.host.handles.ttlText(),
      ...(handle.count !== undefined ? { count: handle.count } : {}),
      ...(text ? { lines: text.lines, chars: text.chars } : {}),
    };
    const result = { ok: true as const, handle: handle.id, summary: handle.summary, meta };
    return budget === undefined ? result : withFirstPage(result, plain, budget);
  }
}

/**
 * The caller's arguments over the tool's defaults, or the path of the first value nested deeper
 * than `maxDepth` (looked for only when a parameter's value is an object or array: the loop
 * that merges tells, so flat arguments cost no second pass). OpenAI strict mode sends every
 * optional parameter, null when unused: null means absent there. A key `__proto__` stays an
 * own property (the validator refuses it or passes it on as data), so a tool's argument object
 * always has `Object.prototype`.
 */
function mergeArguments(
  tool: ToolDefinition,
  args: { [name: string]: unknown },
  maxDepth: number,
): { [name: string]: unknown } | string {
  const merged: { [name: string]: unknown } = { ...(tool.defaults as object) };
  const required = tool.inputSchema.required as readonly string[] | undefined;
  let nested = false;
  for (const [name, value] of Object.entries(args)) {
    if (value === null && !required?.includes(name)) continue;
    if (typeof value === "object") nested = true;
    setOwn(merged, name, value);
  }
  return (nested && tooDeepAt(args, maxDepth)) || merged;
}

/** What arguments nested deeper than `maxDepth` answer; `path` is where. */
export function tooDeepFailure(path: string, maxDepth: number): CallError {
  return failure(clip(`invalid:${path}`, MAX_PATH), `nested deeper than ${maxDepth} levels`);
}

/** A call whose next step is `step`: its answer, and its tool's stop once the step is known. */
function chain(step: Promise<CallResult | Pending>): Pending {
  return new Pending(
    step.then((next) => (next instanceof Pending ? next.answer : next)),
    step.then((next) => (next instanceof Pending ? next.stopped : undefined)),
  );
}

/** At most this many nulls are dropped from one call's arguments. */
const MAX_DROPPED_NULLS = 32;

/**
 * Validates, treating a `null` that the schema refuses for an *optional* property as absent:
 * OpenAI strict mode makes every optional property nullable, at any depth, and sends null for
 * those it does not use. The validator decides what is optional: a null it calls invalid is
 * dropped and the arguments checked again; if the property then turns out to be missing (it is
 * required), the original error stands. Nulls in arrays are values and are never dropped.
 */
function validateDroppingStrictNulls(
  validator: Validator,
  args: { [name: string]: unknown },
): ValidationResult {
  let candidate: unknown = args;
  let checked = validator(candidate);
  for (let dropped = 0; !checked.ok && dropped < MAX_DROPPED_NULLS; dropped++) {
    if (!checked.error.startsWith("invalid:")) break;
    const path = checked.error.slice("invalid:".length);
    const without = withoutNullAt(candidate, parsePath(path));
    if (without === undefined) break;
    const retry = validator(without);
    if (!retry.ok && retry.error === `missing:${path}`) break;
    candidate = without;
    checked = retry;
  }
  return checked;
}

/** `$.rows[2].qty`, `$["a b"]` → its steps; null when it is not such a path. */
function parsePath(path: string): (string | number)[] | null {
  if (!path.startsWith("$")) return null;
  const steps: (string | number)[] = [];
  let rest = path.slice(1);
  while (rest !== "") {
    const step = /^\.([A-Za-z_$][A-Za-z0-9_$]*)|^\[(\d+)\]|^\[("(?:[^"\\]|\\.)*")\]/.exec(rest);
    if (!step) return null;
    steps.push(
      step[1] ?? (step[2] !== undefined ? Number(step[2]) : (JSON.parse(step[3]!) as string)),
    );
    rest = rest.slice(step[0].length);
  }
  return steps;
}

/** A copy of `value` without the object property at `steps` if it holds null, else undefined. */
function withoutNullAt(value: unknown, steps: (string | number)[] | null): unknown {
  if (!steps || steps.length === 0 || value === null || typeof value !== "object") return undefined;
  const [step, ...rest] = steps as [string | number, ...(string | number)[]];
  if (Array.isArray(value)) {
    if (typeof step !== "number" || rest.length === 0) return undefined;
    const inner = withoutNullAt(value[step], rest);
    return inner === undefined
      ? undefined
      : value.map((item, index) => (index === step ? inner : item));
  }
  const record = value as { [key: string]: unknown };
  if (typeof step !== "string" || !Object.hasOwn(record, step)) return undefined;
  if (rest.length === 0) {
    if (record[step] !== null) return undefined;
    const { [step]: _null, ...others } = record;
    return others;
  }
  const inner = withoutNullAt(record[step], rest);
  return inner === undefined ? undefined : { ...record, [step]: inner };
}

/**
 * When a call's time limit starts to run: at once, unless its executor said the call waits
 * (`queued`), then when the executor starts it: time spent waiting for others is not the call's.
 */
class TimeLimitStart {
  private waiting = false;
  private onStart: (() => void) | undefined;

  /** The call as its executor sees it, whose `queued` and `started` report here. */
  call(timeoutMs: number, maxResultBytes: number): ExecutedCall {
    return {
      timeoutMs,
      maxResultBytes,
      queued: () => {
        this.waiting = true;
      },
      started: () => {
        this.waiting = false;
        const run = this.onStart;
        this.onStart = undefined;
        run?.();
      },
    };
  }

  /** Runs `arm` now, or once a waiting call starts. */
  whenStarted(arm: () => void): void {
    if (this.waiting) this.onStart = arm;
    else arm();
  }
}

/** The caller of a call whose surface names none. */
const ANONYMOUS: CallerIdentity = Object.freeze({ scopes: Object.freeze([]) });

/** What a dispatcher gets for a tool that takes no context: it cannot be read. */
const IDLE_SIGNAL = new AbortController().signal;
const IDLE_CONTEXT: ToolContext = Object.freeze({
  [CONTEXT_BRAND]: true as const,
  sessionId: "",
  signal: IDLE_SIGNAL,
  config: undefined,
  caller: ANONYMOUS,
  progress: () => {},
  log: () => {},
  ...askMethods(undefined, IDLE_SIGNAL),
});

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    value !== null &&
    (typeof value === "object" || typeof value === "function") &&
    typeof (value as { then?: unknown }).then === "function"
  );
}

function isFailure<T extends object>(result: T | CallError): result is CallError {
  return (result as { ok?: unknown }).ok === false;
}

function defaultToolError(error: unknown, tool: ToolDefinition, session: Caller): void {
  console.error(`zcp: tool ${tool.alias} failed in session ${session.id}:`, error);
}
