// Guided workflows (SPEC §2 "MCP prompts"). Each prompt is a declaration: name, arguments and the
// messages it produces. The list is filled by the draft-editing area.
import type { GetPromptResult, Prompt } from '@modelcontextprotocol/sdk/types.js';

export type PromptDef = {
  prompt: Prompt;
  render(args: Record<string, string>): GetPromptResult;
};

export const PROMPTS: PromptDef[] = [];
