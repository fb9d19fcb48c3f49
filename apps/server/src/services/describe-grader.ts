import type { GraderKind } from '@gradewise/shared/contracts/grading';
import type { Config } from '../config.ts';
import { resolveModelName } from '../ai/provider/settings.ts';

/**
 * Who will grade, as configured, before any call: a queued row needs a grader kind, provider and
 * model. The job overwrites them with what actually answered (model names can differ in detail).
 */
export function describeConfiguredGrader(config: Config): {
  graderKind: GraderKind;
  provider: string;
  model: string;
  promptVersion: string;
} {
  const isBuiltin = config.ai.provider === 'builtin';
  return {
    graderKind: isBuiltin ? 'builtin' : 'llm',
    provider: config.ai.provider,
    model: resolveModelName(config.ai),
    // Known only once the grader answered.
    promptVersion: 'pending',
  };
}
