import { useId, useState } from 'react';
import {
  Box,
  Button,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormLabel,
  NativeSelect,
  Paper,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import type { WorkSplitGrader, WorkSplitOutput, WorkSplitQuestion } from '@gradewise/shared/contracts/work-split';
import { EmptyMessage, LoadFailedMessage, LoadingMessage } from '../../../components/screen-states.tsx';
import { messageOf } from '../../../lib/api-client.ts';
import { showError, showSuccess } from '../../../lib/toasts.tsx';
import {
  splitEvenly,
  useSetQuestionGraders,
  useSetStudentGraders,
  useWorkSplit,
  WORK_SPLIT_MESSAGES,
} from '../api/work-split-api.ts';

/**
 * The course team's work split (issue 12 item 1, decision 0031). The owner gives questions to
 * graders (several graders on one question share its students, each a range of the list) and
 * students to graders (sections, for questions without graders of their own). TAs see the split.
 * Each grader's review queue then holds their own share.
 */
export function WorkSplitEditor({ courseId, canManage }: { courseId: string; canManage: boolean }) {
  const split = useWorkSplit(courseId);
  if (split.isPending) return <LoadingMessage text="Loading the work split…" />;
  if (split.isError)
    return (
      <LoadFailedMessage
        error={split.error}
        notFoundText={WORK_SPLIT_MESSAGES.notFound}
        failedText={WORK_SPLIT_MESSAGES.fetchFailed}
        onRetry={() => void split.refetch()}
      />
    );
  return (
    <Stack spacing={4}>
      <QuestionsSection courseId={courseId} split={split.data} canManage={canManage} />
      <StudentsSection courseId={courseId} split={split.data} canManage={canManage} />
    </Stack>
  );
}

const graderName = (graders: readonly WorkSplitGrader[], id: string) => {
  const grader = graders.find((candidate) => candidate._id === id);
  return grader ? `${grader.name}${grader.isOwner ? ' (instructor)' : ''}` : 'Former grader';
};

function QuestionsSection({
  courseId,
  split,
  canManage,
}: {
  courseId: string;
  split: WorkSplitOutput;
  canManage: boolean;
}) {
  const headingId = useId();
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id={headingId} variant="h5" component="h2" gutterBottom>
        Questions
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Give a question to one or more graders. Several graders on one question share its students: each gets an equal
        range of the list (by name, or by label while grading is anonymous), so no answer is graded twice.
      </Typography>
      {split.questions.length === 0 ? (
        <EmptyMessage text="No questions yet. Questions appear here once an assignment has them." />
      ) : (
        <Stack spacing={2}>
          {split.questions.map((question) => (
            <QuestionGraders
              key={question.questionId}
              courseId={courseId}
              question={question}
              graders={split.graders}
              canManage={canManage}
            />
          ))}
        </Stack>
      )}
    </Paper>
  );
}

function QuestionGraders({
  courseId,
  question,
  graders,
  canManage,
}: {
  courseId: string;
  question: WorkSplitQuestion;
  graders: readonly WorkSplitGrader[];
  canManage: boolean;
}) {
  const setGraders = useSetQuestionGraders(courseId);
  const title = `${question.assignmentTitle}: ${question.questionLabel}`;
  const summary =
    question.graderIds.length === 0
      ? 'No graders of its own: sections decide, else everyone grades it.'
      : `Graded by ${question.graderIds.map((id) => graderName(graders, id)).join(', ')}.`;
  if (!canManage)
    return (
      <Box>
        <Typography sx={{ fontWeight: 500 }}>{title}</Typography>
        <Typography variant="body2" color="text.secondary">
          {summary}
        </Typography>
      </Box>
    );
  const toggle = (graderId: string, checked: boolean) => {
    const graderIds = checked ? [...question.graderIds, graderId] : question.graderIds.filter((id) => id !== graderId);
    setGraders.mutate(
      { questionId: question.questionId, graderIds },
      {
        onSuccess: (output) => showSuccess(output.message),
        onError: (error) => showError(messageOf(error, WORK_SPLIT_MESSAGES.saveFailed), error),
      },
    );
  };
  return (
    <FormControl component="fieldset" variant="standard" disabled={setGraders.isPending}>
      <FormLabel component="legend" sx={{ fontWeight: 500, color: 'text.primary' }}>
        Graders of {title}
      </FormLabel>
      <FormGroup row>
        {graders.map((grader) => (
          <FormControlLabel
            key={grader._id}
            control={
              <Checkbox
                checked={question.graderIds.includes(grader._id)}
                onChange={(event) => toggle(grader._id, event.target.checked)}
              />
            }
            label={graderName(graders, grader._id)}
          />
        ))}
      </FormGroup>
      <Typography variant="caption" color="text.secondary">
        {summary}
      </Typography>
    </FormControl>
  );
}

function StudentsSection({
  courseId,
  split,
  canManage,
}: {
  courseId: string;
  split: WorkSplitOutput;
  canManage: boolean;
}) {
  const headingId = useId();
  const setStudents = useSetStudentGraders(courseId);
  const save = (changes: { studentId: string; graderId: string | null }[]) =>
    setStudents.mutate(changes, {
      onSuccess: (output) => showSuccess(output.message),
      onError: (error) => showError(messageOf(error, WORK_SPLIT_MESSAGES.saveFailed), error),
    });
  return (
    <Paper variant="outlined" component="section" aria-labelledby={headingId} sx={{ p: { xs: 2, sm: 3 } }}>
      <Typography id={headingId} variant="h5" component="h2" gutterBottom>
        Sections
      </Typography>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 2 }}>
        Give students to a grader: they grade those students&apos; answers to every question without graders of its own.
      </Typography>
      {split.students.length === 0 ? (
        <EmptyMessage text="No students on the roster yet." />
      ) : (
        <>
          {canManage ? (
            <SplitEvenlyForm
              graders={split.graders}
              studentCount={split.students.length}
              disabled={setStudents.isPending}
              onSplit={(graderIds) =>
                save(
                  splitEvenly(
                    split.students.map((student) => student._id),
                    graderIds,
                  ),
                )
              }
            />
          ) : null}
          <TableContainer sx={{ maxHeight: 520 }}>
            <Table size="small" stickyHeader aria-label="Sections">
              <TableHead>
                <TableRow>
                  <TableCell>Student</TableCell>
                  <TableCell>Grader</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {split.students.map((student) => (
                  <TableRow key={student._id}>
                    <TableCell component="th" scope="row" sx={{ overflowWrap: 'anywhere' }}>
                      {student.name}
                      {student.email ? (
                        <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
                          {student.email}
                        </Typography>
                      ) : null}
                    </TableCell>
                    <TableCell>
                      {canManage ? (
                        <NativeSelect
                          value={student.graderId ?? ''}
                          disabled={setStudents.isPending}
                          onChange={(event) => save([{ studentId: student._id, graderId: event.target.value || null }])}
                          inputProps={{ 'aria-label': `Grader of ${student.name}` }}
                        >
                          <option value="">Unassigned</option>
                          {split.graders.map((grader) => (
                            <option key={grader._id} value={grader._id}>
                              {graderName(split.graders, grader._id)}
                            </option>
                          ))}
                        </NativeSelect>
                      ) : student.graderId ? (
                        graderName(split.graders, student.graderId)
                      ) : (
                        'Unassigned'
                      )}
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
        </>
      )}
    </Paper>
  );
}

function SplitEvenlyForm({
  graders,
  studentCount,
  disabled,
  onSplit,
}: {
  graders: readonly WorkSplitGrader[];
  studentCount: number;
  disabled: boolean;
  onSplit(graderIds: string[]): void;
}) {
  const [chosen, setChosen] = useState<string[]>([]);
  // In the order the graders are listed, so the first names go to the first grader.
  const ordered = graders.filter((grader) => chosen.includes(grader._id)).map((grader) => grader._id);
  return (
    <Box sx={{ mb: 2 }}>
      <FormControl component="fieldset" variant="standard" disabled={disabled}>
        <FormLabel component="legend">Split the roster evenly among</FormLabel>
        <FormGroup row>
          {graders.map((grader) => (
            <FormControlLabel
              key={grader._id}
              control={
                <Checkbox
                  checked={chosen.includes(grader._id)}
                  onChange={(event) =>
                    setChosen((current) =>
                      event.target.checked ? [...current, grader._id] : current.filter((id) => id !== grader._id),
                    )
                  }
                />
              }
              label={graderName(graders, grader._id)}
            />
          ))}
        </FormGroup>
      </FormControl>
      <Box>
        <Button variant="contained" disabled={disabled || ordered.length === 0} onClick={() => onSplit(ordered)}>
          {ordered.length === 0
            ? 'Split students evenly'
            : `Split ${studentCount} students among ${ordered.length} ${ordered.length === 1 ? 'grader' : 'graders'}`}
        </Button>
      </Box>
    </Box>
  );
}
