/** One conformance checker per artifact provider. */
import type { ArtifactProvider } from "@zcp/runtime";
import { checkAnthropic } from "./anthropic.js";
import { checkGemini } from "./gemini.js";
import { checkMcp } from "./mcp.js";
import { checkOpenAIChat, checkOpenAIResponses } from "./openai.js";
import type { Checker } from "./shared.js";

export {
  checkAnthropic,
  checkGemini,
  checkMcp,
  checkOpenAIChat,
  checkOpenAIResponses,
  type Checker,
};

export const CHECKERS: { readonly [P in ArtifactProvider]: Checker } = {
  "openai-responses": checkOpenAIResponses,
  "openai-chat": checkOpenAIChat,
  anthropic: checkAnthropic,
  gemini: checkGemini,
  mcp: checkMcp,
};
