import type { ReactNode } from 'react';
import Markdown from 'react-markdown';
import rehypeKatex from 'rehype-katex';
import remarkMath from 'remark-math';
// KaTeX's stylesheet and fonts are bundled by Vite from node_modules: no CDN, works offline.
import 'katex/dist/katex.min.css';
import { Box, Typography } from '@mui/material';
import { ErrorBoundary } from '../../../components/error-boundary.tsx';

/** What the preview shows, as it was when Recompile Preview was pressed. */
export interface PreviewSnapshot {
  questionText: string;
  solutionText: string;
  /** Bumped on every recompile, so a failed render is tried again. */
  version: number;
}

/**
 * rehype-katex does not throw on bad math: it records a message on the file and draws the source
 * in red. For the spec's "falls back to plain text" we want the failure, so this plugin (run
 * after it) turns the first math message into an error the boundary below catches.
 */
function failOnMathErrors() {
  return (_tree: unknown, file: { messages: readonly { source?: string | null; reason: string }[] }) => {
    const problem = file.messages.find((message) => message.source === 'rehype-katex');
    if (problem) throw new Error(`Could not render math: ${problem.reason}`);
  };
}

const REMARK_PLUGINS = [remarkMath];
const REHYPE_PLUGINS = [[rehypeKatex, { strict: 'ignore' }], failOnMathErrors] as const;

function RenderedText({ text }: { text: string }) {
  // No raw HTML: react-markdown escapes it, so a rubric cannot inject markup into the page.
  return (
    <Markdown remarkPlugins={REMARK_PLUGINS} rehypePlugins={REHYPE_PLUGINS as never}>
      {text}
    </Markdown>
  );
}

function PlainText({ snapshot }: { snapshot: PreviewSnapshot }) {
  return (
    <>
      <Section title="Question Text">
        <Typography
          component="pre"
          sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontFamily: 'inherit', m: 0 }}
        >
          {snapshot.questionText}
        </Typography>
      </Section>
      <Section title="Solution Text">
        <Typography
          component="pre"
          sx={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontFamily: 'inherit', m: 0 }}
        >
          {snapshot.solutionText}
        </Typography>
      </Section>
    </>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Box component="section" sx={{ mb: 2 }}>
      <Typography variant="subtitle2" component="h3" color="text.secondary" gutterBottom>
        {title}
      </Typography>
      <Box
        sx={{
          overflowWrap: 'anywhere',
          '& .katex-display': { overflowX: 'auto', overflowY: 'hidden' },
          '& p': { mt: 0 },
        }}
      >
        {children}
      </Box>
    </Box>
  );
}

/**
 * Markdown with LaTeX math ($...$, $$...$$) rendered by KaTeX. When the math cannot be rendered,
 * `onFailed` is told (the screen shows 'Failed to compile rubric preview') and the texts are shown
 * as plain text instead.
 */
export function RubricPreview({ snapshot, onFailed }: { snapshot: PreviewSnapshot; onFailed(error: unknown): void }) {
  return (
    <ErrorBoundary key={snapshot.version} fallback={<PlainText snapshot={snapshot} />} onError={onFailed}>
      <Section title="Question Text">
        <RenderedText text={snapshot.questionText} />
      </Section>
      <Section title="Solution Text">
        <RenderedText text={snapshot.solutionText} />
      </Section>
    </ErrorBoundary>
  );
}
