import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import {
  Alert,
  Box,
  Button,
  Paper,
  Stack,
  Step,
  StepButton,
  Stepper,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
  useMediaQuery,
} from '@mui/material';
import { useTheme } from '@mui/material/styles';
import type { AutoRubricEntry } from '@gradewise/shared/contracts/grading';
import { StaleSaveAlert } from '../../../components/stale-save-alert.tsx';
import { isStaleSave, messageOf } from '../../../lib/api-client.ts';
import { showError, showSuccess } from '../../../lib/toasts.tsx';
import { expectedVersionOf, RUBRIC_MESSAGES, useReloadRubric, useSaveRubric } from '../api/rubrics-api.ts';
import { checkDrafts, toDrafts, toItemInputs, type ItemDraft } from '../rubric-items.ts';
import { RubricItemsEditor } from './rubric-items-editor.tsx';
import { RubricPreviewPane } from './rubric-preview-pane.tsx';
import { RubricTrialPanel, type TrialSubmission } from './rubric-trial-panel.tsx';
import { formatPoints } from '@gradewise/shared/points';
import { questionPagePath } from '../../../lib/paths.ts';

const STEPS = ['Question and solution', 'Rubric items', 'Try it', 'Review and save'] as const;
const ITEMS_STEP = 1;

export interface RubricWizardProps {
  assignmentId: string;
  questionId: string;
  questionPoints: number;
  rubric: AutoRubricEntry;
  submissions: readonly TrialSubmission[];
}

/**
 * The rubric wizard, after a rubric is generated: review the question and solution texts as the
 * grader reads them, shape the items (criterion, points, guidance; add, remove, reorder; the total
 * must equal the question's points), try the rubric on a sample answer or real submissions, then
 * save. Steps can be revisited in any order, but nothing past the items opens while they are wrong.
 */
export function RubricWizard({ assignmentId, questionId, questionPoints, rubric, submissions }: RubricWizardProps) {
  const navigate = useNavigate();
  const theme = useTheme();
  const isPhone = useMediaQuery(theme.breakpoints.down('sm'));
  const save = useSaveRubric(assignmentId, questionId);
  const reload = useReloadRubric(assignmentId, questionId);
  const [staleMessage, setStaleMessage] = useState<string | null>(null);
  const [step, setStep] = useState(0);
  const [questionText, setQuestionText] = useState(rubric.questionText);
  const [solutionText, setSolutionText] = useState(rubric.solutionText);
  const [drafts, setDrafts] = useState<ItemDraft[]>(() => toDrafts(rubric.items));
  const check = checkDrafts(drafts, questionPoints);
  const canOpen = (target: number) => target <= ITEMS_STEP || check.isValid;
  const questionPage = questionPagePath(assignmentId, questionId);

  const onSave = () =>
    save.mutate(
      { questionText, solutionText, items: toItemInputs(drafts), ...expectedVersionOf(rubric) },
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

  return (
    <Box>
      {staleMessage ? <StaleSaveAlert message={staleMessage} onReload={() => void reload()} /> : null}
      <Stepper nonLinear activeStep={step} alternativeLabel={isPhone} sx={{ mb: 3 }}>
        {STEPS.map((label, index) => (
          <Step key={label} completed={index < step && canOpen(index + 1)}>
            <StepButton onClick={() => canOpen(index) && setStep(index)} disabled={!canOpen(index)}>
              {label}
            </StepButton>
          </Step>
        ))}
      </Stepper>

      <Box component="section" aria-label={STEPS[step]}>
        {step === 0 ? (
          <Box
            sx={{
              display: 'grid',
              gridTemplateColumns: { xs: 'minmax(0, 1fr)', md: 'minmax(0, 1fr) minmax(0, 1fr)' },
              gap: 2,
            }}
          >
            <Paper variant="outlined" sx={{ p: { xs: 1.5, sm: 2 } }}>
              <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
                The grader reads these texts, not the PDFs. Check that the extraction got the question and the solution
                right, math included.
              </Typography>
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
              </Stack>
            </Paper>
            <RubricPreviewPane questionText={questionText} solutionText={solutionText} />
          </Box>
        ) : null}
        {step === 1 ? <RubricItemsEditor drafts={drafts} questionPoints={questionPoints} onChange={setDrafts} /> : null}
        {step === 2 ? (
          <RubricTrialPanel
            assignmentId={assignmentId}
            questionId={questionId}
            questionText={questionText}
            solutionText={solutionText}
            items={toItemInputs(drafts)}
            submissions={submissions}
          />
        ) : null}
        {step === 3 ? <RubricSummary drafts={drafts} questionPoints={questionPoints} /> : null}
      </Box>

      <Stack direction="row" spacing={1} useFlexGap sx={{ mt: 3, justifyContent: 'space-between', flexWrap: 'wrap' }}>
        <Stack direction="row" spacing={1}>
          <Button onClick={() => navigate(questionPage)} disabled={save.isPending}>
            Cancel
          </Button>
          {step > 0 ? (
            <Button variant="outlined" onClick={() => setStep(step - 1)} disabled={save.isPending}>
              Back
            </Button>
          ) : null}
        </Stack>
        {step < STEPS.length - 1 ? (
          <Button variant="contained" onClick={() => setStep(step + 1)} disabled={!canOpen(step + 1)}>
            Next
          </Button>
        ) : (
          <Button variant="contained" onClick={onSave} disabled={!check.isValid || save.isPending}>
            {save.isPending ? RUBRIC_MESSAGES.saving : RUBRIC_MESSAGES.save}
          </Button>
        )}
      </Stack>
    </Box>
  );
}

function RubricSummary({ drafts, questionPoints }: { drafts: ItemDraft[]; questionPoints: number }) {
  const check = checkDrafts(drafts, questionPoints);
  return (
    <Box>
      {!check.isValid ? (
        <Alert severity="warning" sx={{ mb: 2 }}>
          {check.problems.join(' ')}
        </Alert>
      ) : (
        <Typography sx={{ mb: 2 }}>
          {drafts.length} {drafts.length === 1 ? 'item' : 'items'}, {formatPoints(check.total)} points in all. Saving
          replaces the question's rubric; grades already saved stay as they are.
        </Typography>
      )}
      <Box sx={{ overflowX: 'auto' }}>
        <Table size="small" aria-label="Rubric to save">
          <TableHead>
            <TableRow>
              <TableCell>#</TableCell>
              <TableCell>Criterion</TableCell>
              <TableCell align="right">Points</TableCell>
              <TableCell>Guidance</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {drafts.map((draft, index) => (
              <TableRow key={draft.key}>
                <TableCell>{index + 1}</TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere' }}>{draft.criterion}</TableCell>
                <TableCell align="right">{draft.points}</TableCell>
                <TableCell sx={{ overflowWrap: 'anywhere', color: 'text.secondary' }}>{draft.guidance}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </Box>
  );
}
