/**
 * A tool's questions to its client (`ToolContext.elicit`, `sample`, `roots`) through the runtime
 * API, on the conformance fixture's tools: the MCP request each writes, the surface's
 * `CallInput` it goes through, every answer checked before the tool sees it, and each refusal
 * (no surface, an undeclared capability, an answer that does not fit, too many questions)
 * answered exactly.
 */
import { describe, expect, it } from "vitest";
import conformance from "../../../fixtures/conformance/src/zcp.gen/index.js";
import {
  createRuntime,
  type CallInput,
  type ClientOffers,
  type GeneratedModule,
  type InputRequest,
  type ToolContext,
} from "../src/index.js";

const EVERYTHING: ClientOffers = { elicitation: true, sampling: true, roots: true };

/** A surface that answers from `answers` by key and records what was asked. */
function answering(answers: { [key: string]: unknown }, offers: ClientOffers = EVERYTHING) {
  const asked: [string, InputRequest][] = [];
  const input: CallInput = {
    offers,
    ask: (key, request) => {
      asked.push([key, request]);
      return Promise.resolve(answers[key]);
    },
  };
  return { input, asked };
}

/** `generated` with the tool `alias` replaced by `fn`. */
function replaced(
  alias: string,
  fn: (args: unknown, ctx: ToolContext) => Promise<unknown>,
): GeneratedModule {
  const id = conformance.registry.tools.find((tool) => tool.alias === alias)!.id;
  return { ...conformance, dispatch: { ...conformance.dispatch, [id]: fn } };
}

const call = (name: string, args: object, input?: CallInput, generated = conformance) =>
  createRuntime(generated)
    .session()
    .call(name, args, input ? { input } : {});

describe("a tool's questions to its client, through the runtime API", () => {
  it("refuses each with unsupported:<kind> when no surface can ask", async () => {
    expect(await call("test.input_required_result_elicitation", {})).toEqual({
      ok: false,
      error: "unsupported:elicitation",
      hint: "the client does not offer elicitation; the tool cannot ask it",
    });
    expect(await call("test.sampling", { prompt: "hi" })).toMatchObject({
      error: "unsupported:sampling",
    });
    expect(await call("test.input_required_result_list_roots", {})).toMatchObject({
      error: "unsupported:roots",
    });
  });

  it("refuses what the client did not declare, and says what it offers", async () => {
    const { input, asked } = answering({}, { elicitation: true, sampling: false, roots: false });
    expect(await call("test.sampling", { prompt: "hi" }, input)).toEqual({
      ok: false,
      error: "unsupported:sampling",
      hint: "the client does not offer sampling; the tool cannot ask it",
    });
    expect(asked).toEqual([]);
    // The capabilities tool asks only what is offered (here the user, under the default key).
    const offered = answering({ "elicit-1": { action: "decline" } }, input.offers);
    expect(await call("test.input_required_result_capabilities", {}, offered.input)).toEqual({
      ok: true,
      value: "action=decline, content={}",
    });
    expect(offered.asked.map(([key]) => key)).toEqual(["elicit-1"]);
  });

  it("writes each question as its MCP request, under the tool's key", async () => {
    const { input, asked } = answering({
      user_name: { action: "accept", content: { name: "Alice" } },
      greeting: { role: "assistant", content: { type: "text", text: "Hi" }, model: "m" },
      client_roots: { roots: [{ uri: "file:///a", name: "A" }, { uri: "file:///b" }] },
    });
    expect(await call("test.input_required_result_multiple_inputs", {}, input)).toEqual({
      ok: true,
      value: "Hi Alice (2 roots)",
    });
    expect(asked).toEqual([
      [
        "user_name",
        {
          method: "elicitation/create",
          params: {
            message: "What is your name?",
            requestedSchema: {
              type: "object",
              properties: { name: { type: "string" } },
              required: ["name"],
            },
          },
        },
      ],
      [
        "greeting",
        {
          method: "sampling/createMessage",
          params: {
            messages: [{ role: "user", content: { type: "text", text: "Generate a greeting" } }],
            maxTokens: 50,
          },
        },
      ],
      ["client_roots", { method: "roots/list", params: {} }],
    ]);
  });

  it("hands the tool only the fields its form has, and a decline as it is", async () => {
    const extra = answering({
      "elicit-1": { action: "accept", content: { username: "u", email: "e", admin: true } },
    });
    expect(await call("test.elicitation", { message: "Who?" }, extra.input)).toEqual({
      ok: true,
      value: 'User response: action=accept, content={"username":"u","email":"e"}',
    });
    const declined = answering({ user_name: { action: "decline", content: { name: "x" } } });
    expect(await call("test.input_required_result_elicitation", {}, declined.input)).toEqual({
      ok: true,
      value: "Hello, stranger!",
    });
  });

  it.each([
    [
      "a number for a string",
      "test.input_required_result_elicitation",
      { user_name: { action: "accept", content: { name: 5 } } },
    ],
    [
      "no required field",
      "test.input_required_result_elicitation",
      { user_name: { action: "accept", content: {} } },
    ],
    [
      "an unknown action",
      "test.input_required_result_elicitation",
      { user_name: { action: "maybe" } },
    ],
    ["no answer at all", "test.input_required_result_elicitation", {}],
    [
      "a choice not offered",
      "test.elicitation_sep1330_enums",
      { "elicit-1": { action: "accept", content: { titledSingle: "value9" } } },
    ],
    [
      "a multiple choice not offered",
      "test.elicitation_sep1330_enums",
      { "elicit-1": { action: "accept", content: { untitledMulti: ["option1", "x"] } } },
    ],
    [
      "a fraction for an integer",
      "test.elicitation_sep1034_defaults",
      { "elicit-1": { action: "accept", content: { age: 2.5 } } },
    ],
    [
      "a user's message as the model's",
      "test.input_required_result_sampling",
      { capital_question: { role: "user", content: { type: "text", text: "x" }, model: "m" } },
    ],
    [
      "a root without a URI",
      "test.input_required_result_list_roots",
      { client_roots: { roots: [{ name: "x" }] } },
    ],
  ])("refuses an answer with %s: invalid:answer", async (_label, tool, answers) => {
    const key = Object.keys(answers)[0] ?? "user_name";
    expect(await call(tool, {}, answering(answers).input)).toEqual({
      ok: false,
      error: "invalid:answer",
      hint: `the client's answer to ${key} does not fit the request`,
    });
  });

  it("ends a tool that asks more than 16 questions with too_many:asks", async () => {
    const { input, asked } = answering(
      Object.fromEntries(
        Array.from({ length: 20 }, (_, i) => [`elicit-${i + 1}`, { action: "cancel" }]),
      ),
    );
    const loop = replaced("test.elicitation_sep1034_defaults", async (_args, ctx) => {
      for (;;) await ctx.elicit("Again?", { properties: {} });
    });
    expect(await call("test.elicitation_sep1034_defaults", {}, input, loop)).toEqual({
      ok: false,
      error: "too_many:asks",
      hint: "a call asks its client 16 times at most",
    });
    expect(asked).toHaveLength(16);
  });

  it("passes a surface's refusal to the model as the tool's error", async () => {
    const input: CallInput = {
      offers: EVERYTHING,
      ask: () => Promise.reject(new Error("the client went away")),
    };
    // Not a ToolError: the tool failed, and the details go to the server's log only.
    const logged: unknown[] = [];
    const runtime = createRuntime(conformance, { onToolError: (error) => logged.push(error) });
    const answer = await runtime
      .session()
      .call("test.input_required_result_elicitation", {}, { input });
    expect(answer).toEqual({
      ok: false,
      error: "exec:error",
      hint: "the tool failed; the details are in the server's log",
    });
    expect(logged).toEqual([new Error("the client went away")]);
  });
});
