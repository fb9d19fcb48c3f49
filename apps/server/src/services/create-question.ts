import { CreateQuestionFields } from '@gradewise/shared/contracts/questions';
import type { AppContext } from '../context.ts';
import { badRequest } from '../lib/errors.ts';
import { newId } from '../lib/ids.ts';
import { parseInput } from '../lib/parse-input.ts';
import { insertQuestion } from '../models/questions.ts';
import type { UserRow } from '../models/users.ts';
import {
  loadVisibleAssignment,
  requireOwner,
  type AsOwner,
  type AssignmentScope,
  type QuestionScope,
} from '../policies/course-access.ts';
import { checkPdf, type CheckedFile, type UploadedFile } from '../storage/file-content.ts';
import { storeFilesThen } from './store-files.ts';

/** Step 1, before the upload is read: only the owning instructor adds questions. */
export async function authorizeQuestionCreation(
  ctx: AppContext,
  user: UserRow,
  assignmentId: string,
): Promise<AsOwner<AssignmentScope>> {
  return requireOwner(await loadVisibleAssignment(ctx.db, user, assignmentId), 'create questions');
}

export interface CreateQuestionForm {
  fields: Record<string, string>;
  questionFile?: UploadedFile;
  solutionFile?: UploadedFile;
}

/** Step 2: validates the form and stores the question with its PDFs, all or nothing. */
export async function createQuestion(
  ctx: AppContext,
  scope: AsOwner<AssignmentScope>,
  user: UserRow,
  form: CreateQuestionForm,
): Promise<QuestionScope> {
  const { title, points } = parseInput(CreateQuestionFields, form.fields);
  if (!form.questionFile) throw badRequest('Please select a Question PDF.');
  const uploads: CheckedFile[] = [await checkPdf('question', form.questionFile.bytes, form.questionFile.filename)];
  if (form.solutionFile) uploads.push(await checkPdf('solution', form.solutionFile.bytes, form.solutionFile.filename));
  const question = await storeFilesThen(ctx, uploads, user.id, async (tx, stored) =>
    insertQuestion(tx, {
      id: newId(),
      assignmentId: scope.assignment.id,
      title,
      points,
      questionFileId: stored.find((file) => file.kind === 'question')!.id,
      solutionFileId: stored.find((file) => file.kind === 'solution')?.id ?? null,
    }),
  );
  return { ...scope, question };
}
