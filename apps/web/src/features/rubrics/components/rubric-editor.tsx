import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { Box, Button, Paper, Stack, TextField, Typography } from '@mui/material';
import type { AutoRubricEntry } from '@gradewise/shared/contracts/grading';
import { StaleSaveAlert } from '../../../components/stale-save-alert.tsx';
import { isStaleSave, messageOf } from '../../../lib/api-client.ts';
import { showError, showInfo, showSuccess } from '../../../lib/toasts.tsx';
import {
  expectedVersionOf,
  questionPagePath,
  RUBRIC_MESSAGES,
  useReloadRubric,
  useSaveRubric,
} from '../api/rubrics-api.ts';
import { FullscreenButton, RubricPreviewPane } from './rubric-preview-pane.tsx';

type Pane = 'editor' | 'preview';

export interface RubricEditorProps {
  assignmentId: string;
  questionId: string;
  /** The current rubric; undefined when the question has none yet. */
  rubric: AutoRubricEntry | undefined;
}

/**
 * Edit Rubric (spec sections 2 and 4): Question Text and Solution Text, Cancel and Save Rubric
 * ('Saving…' and disabled while saving, then back to the question), and the Preview pane. Each
 * pane has a fullscreen toggle; expanding one collapses the other.
 */
export function RubricEditor({ assignmentId, questionId, rubric }: RubricEditorProps) {
  const navigate = useNavigate();
  const save = useSaveRubric(assignmentId, questionId);
  const reload = useReloadRubric(assignmentId, questionId);
  const [staleMessage, setStaleMessage] = useState<string | null>(null);
  const [questionText, setQuestionText] = useState(rubric?.questionText ?? '');
  const [solutionText, setSolutionText] = useState(rubric?.solutionText ?? '');
  const [expanded, setExpanded] = useState<Pane | null>(null);
  const questionPage = questionPagePath(assignmentId, questionId);
  const headingId = useId();

  // Said once per visit: there is nothing to edit until a rubric is generated.
  const hasWarned = useRef(false);
  useEffect(() => {
    if (!rubric && !hasWarned.current) {
      hasWarned.current = true;
      showInfo(RUBRIC_MESSAGES.noRubric);
    }
  }, [rubric]);

  const toggle = (pane: Pane) => ({
    isExpanded: expanded === pane,
    onToggle: () => setExpanded(expanded === pane ? null : pane),
  });
  const onSave = () =>
    save.mutate(
      { questionText, solutionText, ...expectedVersionOf(rubric) },
      {
        onSuccess: (output) => {
          showSuccess(output.message || RUBRIC_MESSAGES.saved);
          navigate(questionPage);
        },
        onError: (error) => {
          // Someone (or an AI draft) saved the rubric since it was opened: say so, offer to reload.
          if (isStaleSave(error)) return setStaleMessage(messageOf(error, RUBRIC_MESSAGES.saveFailed));
          showError(messageOf(error, RUBRIC_MESSAGES.saveFailed), error);
        },
      },
    );
  // Escape leaves full screen, as in any full-screen view.
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape' && expanded) {
      event.preventDefault();
      setExpanded(null);
    }
  };

  const editorPane = (
    <Paper
      component="section"
      variant="outlined"
      aria-labelledby={headingId}
      sx={{ p: { xs: 1.5, sm: 2 }, height: '100%', minWidth: 0 }}
    >
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 1.5 }}>
        <Typography id={headingId} variant="h6" component="h2" sx={{ flex: 1 }}>
          Rubric
        </Typography>
        <FullscreenButton label="Rubric" toggle={toggle('editor')} />
      </Stack>
      <Stack spacing={2}>
        <TextField
          label="Question Text"
          value={questionText}
          onChange={(event) => setQuestionText(event.target.value)}
          multiline
          minRows={8}
          fullWidth
        />
        <TextField
          label="Solution Text"
          value={solutionText}
          onChange={(event) => setSolutionText(event.target.value)}
          multiline
          minRows={8}
          fullWidth
        />
        <Typography variant="caption" color="text.secondary">
          Markdown and LaTeX math are shown in the preview: $x^2$ inline, or a formula between two lines holding only
          $$.
        </Typography>
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button onClick={() => navigate(questionPage)} disabled={save.isPending}>
            Cancel
          </Button>
          <Button variant="contained" onClick={onSave} disabled={save.isPending}>
            {save.isPending ? RUBRIC_MESSAGES.saving : RUBRIC_MESSAGES.save}
          </Button>
        </Stack>
      </Stack>
    </Paper>
  );
  const previewPane = (
    <RubricPreviewPane questionText={questionText} solutionText={solutionText} fullscreen={toggle('preview')} />
  );

  return (
    <Box onKeyDown={onKeyDown}>
      {staleMessage ? <StaleSaveAlert message={staleMessage} onReload={() => void reload()} /> : null}
      <Box
        sx={{
          display: 'grid',
          gridTemplateColumns: {
            xs: 'minmax(0, 1fr)',
            md: expanded ? 'minmax(0, 1fr)' : 'minmax(0, 1fr) minmax(0, 1fr)',
          },
          gap: 2,
          alignItems: 'stretch',
        }}
      >
        {expanded !== 'preview' ? <Expandable isExpanded={expanded === 'editor'}>{editorPane}</Expandable> : null}
        {expanded !== 'editor' ? <Expandable isExpanded={expanded === 'preview'}>{previewPane}</Expandable> : null}
      </Box>
    </Box>
  );
}

/** A pane that, expanded, covers the whole window above the page. */
function Expandable({ isExpanded, children }: { isExpanded: boolean; children: ReactNode }) {
  return (
    <Box
      sx={
        isExpanded
          ? {
              position: 'fixed',
              inset: 0,
              zIndex: (theme) => theme.zIndex.appBar + 1,
              bgcolor: 'background.default',
              overflow: 'auto',
              p: { xs: 1, sm: 2 },
            }
          : { minWidth: 0 }
      }
    >
      {children}
    </Box>
  );
}
