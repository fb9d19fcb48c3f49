import { useEffect, useId, useRef, useState, type KeyboardEvent, type ReactNode } from 'react';
import { Link as RouterLink, useNavigate } from 'react-router-dom';
import { Alert, Box, Button, Link, Paper, Stack, TextField, Typography } from '@mui/material';
import type { AutoRubricEntry } from '@gradewise/shared/contracts/grading';
import { StaleSaveAlert } from '../../../components/stale-save-alert.tsx';
import { isStaleSave, messageOf } from '../../../lib/api-client.ts';
import { showError, showInfo, showSuccess } from '../../../lib/toasts.tsx';
import { expectedVersionOf, RUBRIC_MESSAGES, useReloadRubric, useSaveRubric } from '../api/rubrics-api.ts';
import { checkDrafts, toDrafts, toItemInputs, type ItemDraft } from '../rubric-items.ts';
import { RubricItemsEditor } from './rubric-items-editor.tsx';
import { FullscreenButton, RubricPreviewPane } from './rubric-preview-pane.tsx';
import { questionPagePath, rubricWizardPath } from '../../../lib/paths.ts';

type Pane = 'editor' | 'preview';

export interface RubricEditorProps {
  assignmentId: string;
  questionId: string;
  /** The question's points: the items must add up to them. */
  questionPoints: number;
  /** The current rubric; undefined when the question has none yet. */
  rubric: AutoRubricEntry | undefined;
}

/**
 * Edit Rubric (spec sections 2 and 4): Question Text and Solution Text, the rubric's items
 * (criterion, points, guidance; add, remove, reorder, with the add-up rule checked as they are
 * typed), Cancel and Save Rubric ('Saving…' and disabled while saving, then back to the question),
 * and the Preview pane. Each pane has a fullscreen toggle; expanding one collapses the other.
 *
 * This is the one place to change a saved rubric; the Rubric Wizard is for drafting and trying a
 * rubric on answers before saving it (issue 13 item 4). Both save through save-rubric.
 */
export function RubricEditor({ assignmentId, questionId, questionPoints, rubric }: RubricEditorProps) {
  const navigate = useNavigate();
  const save = useSaveRubric(assignmentId, questionId);
  const reload = useReloadRubric(assignmentId, questionId);
  const [staleMessage, setStaleMessage] = useState<string | null>(null);
  const [questionText, setQuestionText] = useState(rubric?.questionText ?? '');
  const [solutionText, setSolutionText] = useState(rubric?.solutionText ?? '');
  const [drafts, setDrafts] = useState<ItemDraft[]>(() => toDrafts(rubric?.items ?? []));
  const [expanded, setExpanded] = useState<Pane | null>(null);
  // A rubric without items (none generated yet, or the spec's texts-only save) may stay without:
  // the items are sent, and checked, once there are some or there were some to begin with.
  const sendsItems = drafts.length > 0 || (rubric?.items.length ?? 0) > 0;
  const check = checkDrafts(drafts, questionPoints);
  const canSave = !sendsItems || check.isValid;
  const questionPage = questionPagePath(assignmentId, questionId);
  const headingId = useId();
  const itemsHeadingId = useId();

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
      {
        questionText,
        solutionText,
        ...(sendsItems ? { items: toItemInputs(drafts) } : {}),
        ...expectedVersionOf(rubric),
      },
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
          minRows={6}
          fullWidth
        />
        <TextField
          label="Solution Text"
          value={solutionText}
          onChange={(event) => setSolutionText(event.target.value)}
          multiline
          minRows={6}
          fullWidth
        />
        <Typography variant="caption" color="text.secondary">
          Markdown and LaTeX math are shown in the preview: $x^2$ inline, or a formula between two lines holding only
          $$.
        </Typography>
        <Box component="section" aria-labelledby={itemsHeadingId}>
          <Typography id={itemsHeadingId} variant="subtitle1" component="h3" sx={{ fontWeight: 500 }}>
            Rubric items
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ mb: 1.5 }}>
            What the grader checks and how many points each is worth; together they make the question&apos;s{' '}
            {questionPoints} points. To try a rubric on answers before saving it, use the{' '}
            <Link component={RouterLink} to={rubricWizardPath(assignmentId, questionId)}>
              Rubric Wizard
            </Link>
            .
          </Typography>
          {drafts.length === 0 ? (
            <Alert severity="info" sx={{ mb: 1 }}>
              No items yet: the grader works from the texts alone. Add items to say what earns the points.
            </Alert>
          ) : null}
          <RubricItemsEditor drafts={drafts} questionPoints={questionPoints} onChange={setDrafts} />
        </Box>
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end', alignItems: 'center' }}>
          {!canSave ? (
            <Typography variant="body2" color="warning.light" sx={{ flex: 1 }}>
              Fix the items above to save.
            </Typography>
          ) : null}
          <Button onClick={() => navigate(questionPage)} disabled={save.isPending}>
            Cancel
          </Button>
          <Button variant="contained" onClick={onSave} disabled={save.isPending || !canSave}>
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
