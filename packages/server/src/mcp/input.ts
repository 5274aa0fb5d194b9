/**
 * A tool's questions to its client (`ToolContext.elicit`, `sample`, `roots`), in each era.
 *
 * - 2025 sessions (`sessionInput`): a question is a request to the client on the call's own
 *   stream (`elicitation/create`, `sampling/createMessage`, `roots/list`), bounded by the call's
 *   signal, which aborts at its time limit, on cancellation and when the session closes.
 * - 2026-07-28 (`InputRounds`, multi-round-trip requests): the server sends no requests. A
 *   question the retried request does not answer makes the call answer `input_required` with
 *   every question it asked in that run (`inputRequests`) and a `requestState`; the client asks
 *   its user, then calls again with `inputResponses` and the state, and the tool runs again from
 *   the start, its questions now answered. The state holds the answers of the earlier rounds,
 *   signed (HMAC-SHA-256, the SDK's `createRequestStateCodec`) under a key derived from the
 *   server's secret, expiring after `STATE_TTL_SECONDS`, and bound to the tool, a digest of its
 *   arguments and the caller (the owner of the runtime session): a state that fails any check is
 *   refused with the SDK's -32602 `Invalid or expired requestState`.
 */
import { createHash, createHmac, randomBytes } from "node:crypto";
import {
  CLIENT_CAPABILITIES_META_KEY,
  createRequestStateCodec,
  ProtocolErrorCode as ErrorCode,
  type ClientCapabilities,
  type InputRequests,
  type InputRequiredResult,
  type RequestOptions,
  type RequestStateCodec,
  type Server,
  type ServerContext,
} from "@modelcontextprotocol/server";
import {
  clip,
  failure,
  ToolError,
  type CallError,
  type CallInput,
  type ClientOffers,
  type InputRequest,
} from "@zcp/runtime";
import { ProtocolError } from "./errors.js";

/** How long a `requestState` is good for: a person answers a form within ten minutes. */
const STATE_TTL_SECONDS = 600;
/** A `requestState` longer than this is not made: the call answers `too_large:answers`. */
const MAX_STATE_CHARS = 65_536;
/**
 * How long a 2025 client may take to answer a question: the call's own time limit bounds it
 * (its signal), so the SDK's 60 s default must not cut in first.
 */
const ASK_TIMEOUT_MS = 2_147_483_647;
/** Keeps these MACs apart from any other use of the server's secret (native session tokens). */
const KEY_DOMAIN = "zcp-mcp-request-state";

/** What a `requestState` holds. */
interface RoundState {
  /** The tool's name, as called. */
  readonly tool: string;
  /** A digest of the call's arguments. */
  readonly args: string;
  /** The runtime session's owner (the caller). */
  readonly owner: string;
  /** The answers of the earlier rounds that the tool used, by key. */
  readonly answers: { readonly [key: string]: unknown };
}

/** What a client declared it answers, from its capabilities. */
function offersOf(capabilities: ClientCapabilities | undefined): ClientOffers {
  return {
    elicitation: capabilities?.elicitation !== undefined,
    sampling: capabilities?.sampling !== undefined,
    roots: capabilities?.roots !== undefined,
  };
}

/** A 2025 session's questions: requests to the client on the call's stream. */
export function sessionInput(server: Server, extra: ServerContext): CallInput {
  return {
    offers: offersOf(server.getClientCapabilities()),
    async ask(key, request, _check, signal) {
      // The SDK checks the answer against the method's result schema; the runtime checks the rest.
      const send = extra.mcpReq.send as (r: InputRequest, o: RequestOptions) => Promise<unknown>;
      try {
        return await send(request, { signal, timeout: ASK_TIMEOUT_MS });
      } catch (error) {
        if (signal.aborted) throw error;
        throw new ToolError(
          "unavailable:answer",
          clip(`the client did not answer ${key}: ${(error as Error).message}`, 200),
        );
      }
    },
  };
}

/** One run of a 2026-07-28 call: the answers it has, and the questions it asked without one. */
class RoundInput implements CallInput {
  /** Questions asked and not answered (or answered with what does not fit): `inputRequests`. */
  readonly asked: { [key: string]: InputRequest } = {};
  /** Answers the run used, as checked (what the question did not ask left out): the next round's state. */
  readonly used: { [key: string]: unknown } = {};

  constructor(
    readonly offers: ClientOffers,
    private readonly answers: { readonly [key: string]: unknown },
  ) {}

  ask(key: string, request: InputRequest, check: (answer: unknown) => unknown): Promise<unknown> {
    const answer = Object.hasOwn(this.answers, key) ? check(this.answers[key]) : undefined;
    if (answer !== undefined) {
      this.used[key] = answer;
      return Promise.resolve(answer);
    }
    // Asked again when the answer does not fit: the spec's advice for missing input.
    this.asked[key] = request;
    return Promise.reject(
      new ToolError(
        "input_required",
        "the client is asked first; the call runs again with its answer",
      ),
    );
  }

  get asking(): boolean {
    return Object.keys(this.asked).length > 0;
  }
}

/** The 2026-07-28 era's rounds of one server: its state codec, and the calls' inputs. */
export class InputRounds {
  readonly #codec: RequestStateCodec<RoundState>;

  /** `secret`: the server's key (any length; a random one per process without it). */
  constructor(secret: Uint8Array = randomBytes(32)) {
    const key = createHmac("sha256", secret).update(KEY_DOMAIN).digest();
    this.#codec = createRequestStateCodec<RoundState>({ key, ttlSeconds: STATE_TTL_SECONDS });
  }

  /** The SDK's `requestState.verify` hook: a state this server did not sign, or expired, is refused. */
  verify = (state: string, extra: ServerContext): Promise<RoundState> =>
    this.#codec.verify(state, extra);

  /**
   * The input of one run of `tool` for `owner`: the answers of the verified state (which must
   * be of this tool, arguments and owner) and those the request carries.
   */
  open(extra: ServerContext, tool: string, args: unknown, owner: string): RoundInput {
    const envelope = extra.mcpReq.envelope as { readonly [key: string]: unknown } | undefined;
    const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY] as ClientCapabilities | undefined;
    const state = extra.mcpReq.requestState<RoundState>();
    let answers: { readonly [key: string]: unknown } = {};
    if (state !== undefined) {
      if (
        typeof state !== "object" ||
        state.tool !== tool ||
        state.args !== digest(args) ||
        state.owner !== owner
      )
        throw new ProtocolError(ErrorCode.InvalidParams, "Invalid or expired requestState", {
          reason: "invalid_request_state",
        });
      answers = state.answers;
    }
    return new RoundInput(offersOf(capabilities), {
      ...answers,
      ...(extra.mcpReq.inputResponses ?? {}),
    });
  }

  /** What a run that asked answers: its questions and the state of the next round. */
  async inputRequired(
    input: RoundInput,
    extra: ServerContext,
    tool: string,
    args: unknown,
    owner: string,
  ): Promise<{ readonly asked: InputRequiredResult } | { readonly refused: CallError }> {
    const state: RoundState = { tool, args: digest(args), owner, answers: input.used };
    const requestState = await this.#codec.mint(state, extra);
    if (requestState.length > MAX_STATE_CHARS)
      return {
        refused: failure(
          "too_large:answers",
          `the answers of earlier rounds are over ${MAX_STATE_CHARS} characters; ask for less`,
        ),
      };
    const inputRequests = { ...input.asked } as InputRequests;
    return { asked: { resultType: "input_required", inputRequests, requestState } };
  }
}

function digest(args: unknown): string {
  return createHash("sha256")
    .update(JSON.stringify(args) ?? "")
    .digest("base64url");
}
