import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { SetQuestionGradersInput } from '@gradewise/shared/contracts/work-split';
import { COURSE_ID, courseForStaff, signInAs } from '../../test/fixtures.ts';
import { deferredResponse, INSTRUCTOR, jsonResponse, stubNetwork } from '../../test/network.ts';
import { renderApp } from '../../test/render-app.tsx';
import { splitEvenly, WORK_SPLIT_MESSAGES } from './api/work-split-api.ts';

const SPLIT_API = `/api/courses/${COURSE_ID}/work-split`;
const TA = { _id: 'ta-1', name: 'Tina Assistant', isOwner: false };

function split(overrides: Record<string, unknown> = {}) {
  return {
    graders: [{ _id: INSTRUCTOR._id, name: INSTRUCTOR.name, isOwner: true }, TA],
    questions: [
      {
        questionId: 'question-1',
        assignmentId: 'assignment-1',
        assignmentTitle: 'Homework 1',
        questionLabel: 'Eigenvalues',
        graderIds: [],
      },
    ],
    students: [
      { _id: 's1', name: 'Ann Able', email: 'ann@example.edu', graderId: null },
      { _id: 's2', name: 'Ben Baker', email: 'ben@example.edu', graderId: null },
      { _id: 's3', name: 'Cat Cole', email: 'cat@example.edu', graderId: 'ta-1' },
    ],
    ...overrides,
  };
}

describe('work split screen', () => {
  it('shows loading, then lets the owner give a question to graders and split the roster evenly', async () => {
    const loading = deferredResponse();
    const sent = stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET /api/courses/${COURSE_ID}`]: () => jsonResponse(200, courseForStaff({ staffRole: 'owner' })),
      [`GET ${SPLIT_API}`]: loading.responder,
      [`PUT ${SPLIT_API}/questions/question-1`]: (request) =>
        jsonResponse(200, {
          message: 'This question has one grader now.',
          split: split({
            questions: [{ ...split().questions[0], graderIds: SetQuestionGradersInput.parse(request.body).graderIds }],
          }),
        }),
      [`PUT ${SPLIT_API}/students`]: () => jsonResponse(200, { message: '3 students updated.', split: split() }),
    });
    renderApp(`/courses/${COURSE_ID}/work-split`);
    // The lazy route and the course come first; on a busy machine that can take a few seconds.
    expect(
      await screen.findByRole('status', { name: 'Loading the work split…' }, { timeout: 15_000 }),
    ).toBeInTheDocument();
    loading.respond(jsonResponse(200, split()));

    const graders = await screen.findByRole('group', { name: 'Graders of Homework 1: Eigenvalues' });
    expect(within(graders).getByText('No graders of its own: sections decide, else everyone grades it.')).toBeVisible();
    await userEvent.click(within(graders).getByRole('checkbox', { name: 'Tina Assistant' }));
    expect(await screen.findByText('This question has one grader now.')).toBeInTheDocument();
    expect(within(graders).getByRole('checkbox', { name: 'Tina Assistant' })).toBeChecked();
    expect(within(graders).getByText('Graded by Tina Assistant.')).toBeVisible();
    expect(sent.find((request) => request.method === 'PUT')?.body).toEqual({ graderIds: ['ta-1'] });

    expect(screen.getByRole('combobox', { name: 'Grader of Cat Cole' })).toHaveValue('ta-1');
    const even = screen.getByRole('group', { name: 'Split the roster evenly among' });
    const button = screen.getByRole('button', { name: 'Split students evenly' });
    expect(button).toBeDisabled();
    await userEvent.click(within(even).getByRole('checkbox', { name: 'Ada Instructor (instructor)' }));
    await userEvent.click(within(even).getByRole('checkbox', { name: 'Tina Assistant' }));
    await userEvent.click(screen.getByRole('button', { name: 'Split 3 students among 2 graders' }));
    expect(await screen.findByText('3 students updated.')).toBeInTheDocument();
    expect(sent.filter((request) => request.method === 'PUT').at(-1)?.body).toEqual({
      students: [
        { studentId: 's1', graderId: INSTRUCTOR._id },
        { studentId: 's2', graderId: INSTRUCTOR._id },
        { studentId: 's3', graderId: 'ta-1' },
      ],
    });
  });

  it('shows a TA the split without controls, and the empty states', async () => {
    stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET /api/courses/${COURSE_ID}`]: () => jsonResponse(200, courseForStaff({ staffRole: 'ta' })),
      [`GET ${SPLIT_API}`]: () => jsonResponse(200, split({ questions: [], students: [] })),
    });
    renderApp(`/courses/${COURSE_ID}/work-split`);
    expect(
      await screen.findByText('No questions yet. Questions appear here once an assignment has them.'),
    ).toBeInTheDocument();
    expect(screen.getByText('No students on the roster yet.')).toBeInTheDocument();
    expect(screen.queryByRole('checkbox')).toBeNull();
  });

  it('says when the split cannot be loaded, and tries again', async () => {
    let calls = 0;
    stubNetwork({
      ...signInAs(INSTRUCTOR),
      [`GET /api/courses/${COURSE_ID}`]: () => jsonResponse(200, courseForStaff({ staffRole: 'owner' })),
      [`GET ${SPLIT_API}`]: () =>
        // The first load and its one retry fail (5xx is retried once); Try again succeeds.
        (calls += 1) <= 2
          ? jsonResponse(500, { message: 'Something went wrong.', code: 'INTERNAL' })
          : jsonResponse(200, split()),
    });
    renderApp(`/courses/${COURSE_ID}/work-split`);
    expect(await screen.findByText(WORK_SPLIT_MESSAGES.fetchFailed, {}, { timeout: 8000 })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() =>
      expect(screen.getByRole('group', { name: 'Graders of Homework 1: Eigenvalues' })).toBeVisible(),
    );
  });
});

describe('splitEvenly', () => {
  it('gives contiguous ranges of about equal size, the first names to the first grader', () => {
    const students = ['a', 'b', 'c', 'd', 'e', 'f', 'g'];
    const graders = splitEvenly(students, ['x', 'y', 'z']).map((entry) => entry.graderId);
    expect(graders).toEqual(['x', 'x', 'x', 'y', 'y', 'z', 'z']);
  });
});
