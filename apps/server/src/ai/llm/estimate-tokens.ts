import type { GradingInput, RubricDraftInput, RubricItem } from '../grader-types.ts';
import type { LlmMessage } from '../provider/language-model-client.ts';
import { selectSimilarExamples } from './few-shot.ts';
import { effectiveRubricItems } from './llm-grader.ts';
import {
  buildGradingSystemPrompt,
  buildGradingUserMessage,
  buildRubricSystemPrompt,
  buildRubricUserMessage,
} from './prompts.ts';

/**
 * What one grading call will cost in tokens, before it is made (issue 31, "cost before"): the
 * prompt the LLM grader would send for this answer — the same system prompt, rubric, few-shot
 * examples and answer text, built by the same functions — counted at about four characters per
 * token, the usual rate of English text in the BPE tokenizers of hosted models. Page images are
 * not counted (Grade All sends text; a vision model's images are priced per tile, which this does
 * not guess).
 *
 * The answer's length is unknown before it is written: `outputTokensPerItem` is what a judgement
 * of one rubric item takes (the JSON around it and its comment). Without a measured figure it is
 * DEFAULT_OUTPUT_TOKENS_PER_ITEM; the caller passes the provider's measured figure once it has one.
 */

export const CHARS_PER_TOKEN = 4;
/** The JSON of one judgement (about 14 tokens) and a comment of "one to three sentences" (about 30). */
export const DEFAULT_OUTPUT_TOKENS_PER_ITEM = 44;
/** The object around the judgements, the general comment and the confidence. */
export const OUTPUT_TOKENS_PER_ANSWER = 12;
/** What each message costs beyond its text (role, separators), as the chat protocols count it. */
const TOKENS_PER_MESSAGE = 4;

export interface TokenEstimate {
  inputTokens: number;
  outputTokens: number;
}

/** Tokens of a text at CHARS_PER_TOKEN. */
export function tokensOfText(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}

export function estimateGradingTokens(
  input: GradingInput,
  options: { outputTokensPerItem?: number } = {},
): TokenEstimate {
  const rubricItems = effectiveRubricItems(input);
  const examples = selectSimilarExamples(input.answerText, input.examples ?? []);
  // Tags of the real length (a fixed prefix and 16 hex digits), so the count matches what is sent.
  const boundaryTag = `student_answer_${'0'.repeat(16)}`;
  const fewShot = { tag: `graded_example_${'0'.repeat(16)}`, examples };
  const { message } = buildGradingUserMessage({ ...input, answerPages: undefined }, boundaryTag, false, fewShot);
  const system = buildGradingSystemPrompt(input, rubricItems, boundaryTag, fewShot, []);
  const inputTokens = tokensOfText(system) + tokensOfMessage(message) + 2 * TOKENS_PER_MESSAGE;
  const perItem = options.outputTokensPerItem ?? DEFAULT_OUTPUT_TOKENS_PER_ITEM;
  const outputTokens = Math.round(OUTPUT_TOKENS_PER_ANSWER + perItem * rubricItems.length);
  return { inputTokens, outputTokens };
}

function tokensOfMessage(message: LlmMessage): number {
  if (typeof message.content === 'string') return tokensOfText(message.content);
  return tokensOfText(message.content.map((part) => (part.type === 'text' ? part.text : '')).join(''));
}

/**
 * A question without a rubric: Grade All drafts one first. The draft is assumed to have
 * ASSUMED_DRAFT_ITEMS items (the prompt asks for two to six; three is the usual count for a
 * short question), each a criterion of about one sentence and guidance of about two.
 */
export const ASSUMED_DRAFT_ITEMS = 3;
const ASSUMED_CRITERION = 'x'.repeat(60);
const ASSUMED_GUIDANCE = 'x'.repeat(120);

/** What drafting the rubric costs: its prompt, and the items it will answer with. */
export function estimateRubricTokens(input: RubricDraftInput): TokenEstimate {
  const system = buildRubricSystemPrompt(input);
  const inputTokens = tokensOfText(system) + tokensOfMessage(buildRubricUserMessage(input)) + 2 * TOKENS_PER_MESSAGE;
  const item = JSON.stringify({ criterion: ASSUMED_CRITERION, points: 1, guidance: ASSUMED_GUIDANCE });
  const outputTokens = tokensOfText(JSON.stringify({ items: Array.from({ length: ASSUMED_DRAFT_ITEMS }, () => item) }));
  return { inputTokens, outputTokens };
}

/** The rubric a draft is assumed to be, for estimating the grading calls that follow it. */
export function assumedDraftItems(points: number): RubricItem[] {
  return Array.from({ length: ASSUMED_DRAFT_ITEMS }, (_, index) => ({
    id: `item-${index + 1}`,
    criterion: ASSUMED_CRITERION,
    points: points / ASSUMED_DRAFT_ITEMS,
    guidance: ASSUMED_GUIDANCE,
  }));
}
