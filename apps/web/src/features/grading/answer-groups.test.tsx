import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ASSIGNMENT_ID, QUESTION_ID, questionForStaff, signInAs, staffSubmission } from '../../test/fixtures.ts';
import { deferredResponse, INSTRUCTOR, jsonResponse, stubNetwork, type Responder } from '../../test/network.ts';
import { renderApp } from '../../test/render-app.tsx';

// Screens load their route module and data first; on a busy machine that can take over a second.
configure({ asyncUtilTimeout: 5000 });

const QUESTION_PATH = `/assignments/${ASSIGNMENT_ID}/questions/${QUESTION_ID}`;
const QUESTION_API = `/api${QUESTION_PATH}`;

const person = (name: string) => ({
  _id: `user-${name.toLowerCase()}`,
  name,
  email: `${name.toLowerCase()}@example.edu`,
});
const idOf = (name: string) => `submission-${name.toLowerCase()}`;

/** A staff row of the submissions table. */
const row = (name: string, grade: number | null = null) =>
  staffSubmission({
    _id: idOf(name),
    student: person(name),
    uploadedBy: { _id: person(name)._id, name },
    grade,
    isAlreadyGraded: grade !== null,
    gradingStatus: 'succeeded',
    reviewStatus: grade === null ? 'needs-review' : 'graded',
    suggestedScore: 9,
  });

function member(name: string, overrides: Record<string, unknown> = {}) {
  return {
    submissionId: idOf(name),
    student: person(name),
    status: 'needs-review',
    grade: null,
    suggestedScore: 9,
    similarity: 0.95,
    isRepresentative: false,
    flags: [],
    appliedFromSubmissionId: null,
    ...overrides,
  };
}

/** Ann (graded 9), Ben (open), Dan (open, flagged): a group of three; Eve is in no group. */
function groupsOutput(overrides: Record<string, unknown> = {}) {
  return {
    questionPoints: 10,
    groups: [
      {
        groupId: idOf('Ann'),
        size: 3,
        representativeSubmissionId: idOf('Ann'),
        finalValue: '6 N',
        keyTerms: ['force', 'mass'],
        members: [
          member('Ann', { isRepresentative: true, similarity: 1, status: 'graded', grade: 9 }),
          member('Ben'),
          member('Dan', { suggestedScore: 4, flags: ['score-differs'] }),
        ],
      },
    ],
    withoutText: 0,
    gradeFirst: { target: 5, ownGrades: 1, isActive: true },
    ...overrides,
  };
}

/**
 * What GET answer-groups/of/:id answers for `name`, made from the whole list as the server makes it
 * (presentAnswerGroupOf): its member, the first three others, the others without a grade.
 */
function groupOfOutput(name: string, whole: ReturnType<typeof groupsOutput>) {
  const group = whole.groups.find((candidate) => candidate.members.some((entry) => entry.submissionId === idOf(name)));
  if (!group) return { questionPoints: whole.questionPoints, group: null };
  const own = group.members.find((entry) => entry.submissionId === idOf(name))!;
  const others = group.members.filter((entry) => entry.submissionId !== idOf(name));
  const nameOf = (entry: ReturnType<typeof member>) => ({ submissionId: entry.submissionId, student: entry.student });
  const appliedFrom = group.members.find((entry) => entry.submissionId === own.appliedFromSubmissionId);
  return {
    questionPoints: whole.questionPoints,
    group: {
      groupId: group.groupId,
      size: group.size,
      representativeSubmissionId: group.representativeSubmissionId,
      member: own,
      namedOthers: others.slice(0, 3).map(nameOf),
      openOthers: others.filter((entry) => entry.grade === null).length,
      appliedFrom: appliedFrom ? nameOf(appliedFrom) : null,
    },
  };
}

/** The grading screen's read of each answer's group (decision 0095), from the whole list. */
function groupOfRoutes(whole: ReturnType<typeof groupsOutput>): Record<string, Responder> {
  return Object.fromEntries(
    ['Ann', 'Ben', 'Dan', 'Eve'].map((name) => [
      `GET ${QUESTION_API}/answer-groups/of/${idOf(name)}`,
      () => jsonResponse(200, groupOfOutput(name, whole)),
    ]),
  );
}

function queueItem(name: string, overrides: Record<string, unknown> = {}) {
  return {
    submissionId: idOf(name),
    student: person(name),
    isLate: false,
    status: 'needs-review',
    confidenceLevel: 50,
    grade: null,
    isGradeFirst: false,
    represents: null,
    groupSize: null,
    ...overrides,
  };
}

const queueOutput = {
  questionPoints: 10,
  items: [
    queueItem('Ann', { isGradeFirst: true, represents: 3, groupSize: 3, status: 'graded', grade: 9 }),
    queueItem('Eve', { isGradeFirst: true, represents: 1 }),
    queueItem('Ben', { groupSize: 3 }),
    queueItem('Dan', { groupSize: 3 }),
  ],
  remaining: 3,
  gradeFirst: { target: 5, ownGrades: 1, isActive: true },
};

function questionPageRoutes(groups: Responder, extra: Record<string, Responder> = {}) {
  return {
    ...signInAs(INSTRUCTOR),
    [`GET ${QUESTION_API}`]: () =>
      jsonResponse(200, questionForStaff({ submissions: [row('Ann', 9), row('Ben'), row('Dan'), row('Eve')] })),
    [`GET ${QUESTION_API}/grade-all/progress`]: () =>
      jsonResponse(200, {
        batchId: null,
        total: 0,
        done: 0,
        failed: 0,
        running: 0,
        remaining: 0,
        isFinished: true,
      }),
    [`GET ${QUESTION_API}/review-queue`]: () => jsonResponse(200, queueOutput),
    [`GET ${QUESTION_API}/answer-groups`]: groups,
    ...extra,
  };
}

const rowOf = async (name: string) => {
  const table = await screen.findByRole('table', { name: 'Submissions' });
  const header = await within(table).findByRole('rowheader', { name: new RegExp(name) });
  return header.closest('tr')!;
};

describe('answer groups on the question page', () => {
  it('shows each member its group size, the flag of one that differs, and Grade first, and nothing on others', async () => {
    stubNetwork(questionPageRoutes(() => jsonResponse(200, groupsOutput())));
    renderApp(QUESTION_PATH);

    const ben = await rowOf('Ben');
    expect(await within(ben).findByText('Group of 3 alike answers')).toBeInTheDocument();
    expect(within(ben).queryByText(/Differs from its group/)).not.toBeInTheDocument();
    const dan = await rowOf('Dan');
    expect(within(dan).getByText('Group of 3 alike answers')).toBeInTheDocument();
    expect(
      within(dan).getByText("Differs from its group: its ai suggestion is far from the group's"),
    ).toBeInTheDocument();
    const ann = await rowOf('Ann');
    expect(within(ann).getByText('Grade first')).toBeInTheDocument();
    expect(within(ann).getByText('Group of 3 alike answers')).toBeInTheDocument();
    const eve = await rowOf('Eve');
    expect(within(eve).getByText('Grade first')).toBeInTheDocument();
    expect(within(eve).queryByText(/alike answers/)).not.toBeInTheDocument();

    const panel = screen.getByRole('region', { name: 'Alike answers' });
    expect(within(panel).getByRole('status')).toHaveTextContent('Grade these first: 1 of 5 of your own grades saved.');
    expect(within(panel).getByText("Group of 3 alike answers, like Ann's")).toBeInTheDocument();
    expect(
      within(panel).getByText('final value 6 N · key terms: force, mass · 1 graded · 1 flagged'),
    ).toBeInTheDocument();
  });

  it('says when there are no alike answers yet, and how many are not read', async () => {
    stubNetwork(questionPageRoutes(() => jsonResponse(200, groupsOutput({ groups: [], withoutText: 2 }))));
    renderApp(QUESTION_PATH);
    const panel = await screen.findByRole('region', { name: 'Alike answers' });
    expect(await within(panel).findByText('No alike answers yet.')).toBeInTheDocument();
    expect(within(panel).getByText(/2 answers have not been read yet/)).toBeInTheDocument();
    expect(screen.queryByText(/alike answers$/)).not.toBeInTheDocument();
  });

  it('shows a failure in place with Retry, which asks again', async () => {
    let calls = 0;
    stubNetwork(
      questionPageRoutes(() => {
        calls += 1;
        // A 5xx is retried once by the query client: the first two answers fail.
        return calls <= 2
          ? jsonResponse(500, { code: 'INTERNAL', message: 'Something went wrong.' })
          : jsonResponse(200, groupsOutput());
      }),
    );
    renderApp(QUESTION_PATH);
    const user = userEvent.setup({ delay: null });
    const panel = await screen.findByRole('region', { name: 'Alike answers' });
    // The table's badges and the panel share one request: Retry fetches it again.
    expect(await within(panel).findByText('Something went wrong.')).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Retry' }));
    expect(await within(panel).findByText(/Group of 3 alike answers, like Ann/)).toBeInTheDocument();
  });
});

describe('Apply to group dialog', () => {
  async function openDialog() {
    const user = userEvent.setup({ delay: null });
    const panel = await screen.findByRole('region', { name: 'Alike answers' });
    await user.click(await within(panel).findByRole('button', { name: /Group of 3 alike answers, like Ann/ }));
    await user.click(
      within(panel).getByRole('button', { name: "Apply to group: group of 3 alike answers like Ann's" }),
    );
    return { user, dialog: await screen.findByRole('dialog', { name: 'Apply to group: group of 3 alike answers' }) };
  }

  it('lists the members, leaves the flagged one unticked with its reason, and applies to the ticked ones', async () => {
    let groupReads = 0;
    const sent = stubNetwork(
      questionPageRoutes(
        () => {
          groupReads += 1;
          return jsonResponse(200, groupsOutput());
        },
        {
          [`POST ${QUESTION_API}/answer-groups/apply`]: () =>
            jsonResponse(200, {
              message: 'Grade applied to 2 alike answers. Each stays open to review and change.',
              applied: [
                { submissionId: idOf('Ben'), grade: 9 },
                { submissionId: idOf('Dan'), grade: 9 },
              ],
              skipped: [],
            }),
        },
      ),
    );
    renderApp(QUESTION_PATH);
    const { user, dialog } = await openDialog();

    expect(within(dialog).getByText(/Apply the grade of/)).toHaveTextContent('Apply the grade of Ann: 9 / 10');
    expect(within(dialog).getByRole('checkbox', { name: /Ben · AI suggests 9 \/ 10/ })).toBeInTheDocument();
    const ben = within(dialog).getByRole('checkbox', { name: /Ben/ });
    const dan = within(dialog).getByRole('checkbox', { name: /Dan/ });
    expect(ben).toBeChecked();
    expect(dan).not.toBeChecked();
    expect(
      within(dialog).getByText(/Differs from its group: its ai suggestion is far from the group's/),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Apply to 1 answer' })).toBeEnabled();

    // Ticking the flagged member from the keyboard counts it in.
    dan.focus();
    await user.keyboard(' ');
    expect(dan).toBeChecked();
    expect(within(dialog).getByRole('button', { name: 'Apply to 2 answers' })).toBeEnabled();
    // Nothing ticked: nothing to apply.
    await user.click(ben);
    await user.click(dan);
    expect(within(dialog).getByRole('button', { name: 'Apply to 0 answers' })).toBeDisabled();
    await user.click(ben);
    await user.click(dan);

    const readsBefore = groupReads;
    await user.click(within(dialog).getByRole('button', { name: 'Apply to 2 answers' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const apply = sent.find((request) => request.path.endsWith('/answer-groups/apply'))!;
    expect(apply.body).toEqual({ fromSubmissionId: idOf('Ann'), submissionIds: [idOf('Ben'), idOf('Dan')] });
    expect(
      await screen.findByText('Grade applied to 2 alike answers. Each stays open to review and change.'),
    ).toBeInTheDocument();
    // The groups (and the table) are read again to show the new grades.
    await waitFor(() => expect(groupReads).toBeGreaterThan(readsBefore));
  });

  it("shows the server's refusal and keeps the dialog open; Cancel closes it without a request", async () => {
    const sent = stubNetwork(
      questionPageRoutes(() => jsonResponse(200, groupsOutput()), {
        [`POST ${QUESTION_API}/answer-groups/apply`]: () =>
          jsonResponse(409, { code: 'CONFLICT', message: 'This answer is not in a group of alike answers any more.' }),
      }),
    );
    renderApp(QUESTION_PATH);
    const { user, dialog } = await openDialog();
    await user.click(within(dialog).getByRole('button', { name: 'Apply to 1 answer' }));
    expect(await screen.findByText('This answer is not in a group of alike answers any more.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Apply to group: group of 3 alike answers' })).toBeInTheDocument();

    const requests = sent.length;
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(sent.slice(requests).some((request) => request.method === 'POST')).toBe(false);
  });

  it('is not offered while no member of the group has a grade', async () => {
    const ungraded = groupsOutput();
    ungraded.groups[0]!.members[0] = member('Ann', { isRepresentative: true, similarity: 1 });
    stubNetwork(questionPageRoutes(() => jsonResponse(200, ungraded)));
    renderApp(QUESTION_PATH);
    const user = userEvent.setup({ delay: null });
    const panel = await screen.findByRole('region', { name: 'Alike answers' });
    await user.click(await within(panel).findByRole('button', { name: /Group of 3 alike answers, like Ann/ }));
    expect(within(panel).getByRole('button', { name: /^Apply to group/ })).toBeDisabled();
    expect(within(panel).getByText('Grade one answer of this group first.')).toBeInTheDocument();
  });
});

describe('answer group on the grading screen', () => {
  const GRADE_API = `${QUESTION_API}/grade/${idOf('Ann')}`;
  const savedGradeOutput = {
    submissionText: 'F = m a = 6 N',
    gradingResult: {
      comments: [
        {
          _id: 'c1',
          id: 'c1',
          text: 'Give the unit.',
          pointsDeducted: 1,
          accepted: true,
          rubricItemId: null,
          rubricItem: null,
        },
      ],
      totalScore: 9,
    },
    questionPoints: 10,
    confidenceLevel: 70,
    grader: null,
    hiddenText: [],
    gradingRunId: null,
    isAlreadyGraded: true,
  };

  it('shows the group size and offers Apply to group from the open, graded answer', async () => {
    const sent = stubNetwork({
      ...questionPageRoutes(() => jsonResponse(200, groupsOutput())),
      ...groupOfRoutes(groupsOutput()),
      [`POST ${GRADE_API}`]: () => jsonResponse(200, savedGradeOutput),
    });
    renderApp(`${QUESTION_PATH}/grade/${idOf('Ann')}?queue=1`);
    const user = userEvent.setup({ delay: null });

    const group = await screen.findByRole('group', { name: 'Answer group' });
    expect(within(group).getByText('Group of 3 alike answers')).toBeInTheDocument();
    expect(within(group).getByText('2 alike answers have no grade yet.')).toBeInTheDocument();
    // In the queue, the open answer is marked as one to grade first.
    const queueBar = screen.getByRole('navigation', { name: 'Review queue' });
    expect(await within(queueBar).findByText('Grade first')).toBeInTheDocument();

    // The screen read Ann's group only; the whole list (every member) is read when the dialog opens.
    const groupsRead = () => sent.filter((request) => request.path === `${QUESTION_API}/answer-groups`);
    expect(groupsRead()).toHaveLength(0);
    await user.click(within(group).getByRole('button', { name: 'Apply to group' }));
    const dialog = await screen.findByRole('dialog', { name: 'Apply to group: group of 3 alike answers' });
    expect(within(dialog).getByText(/Apply the grade of/)).toHaveTextContent('Apply the grade of Ann: 9 / 10');
    expect(within(dialog).getByRole('checkbox', { name: /Ben/ })).toBeChecked();
    expect(groupsRead()).toHaveLength(1);
  });

  it("names two alike answers and how many more, from the open answer's own group read", async () => {
    const big = groupsOutput();
    big.groups[0]!.size = 300;
    stubNetwork({
      ...questionPageRoutes(() => jsonResponse(200, big)),
      ...groupOfRoutes(big),
      [`POST ${QUESTION_API}/grade/${idOf('Ben')}`]: () =>
        jsonResponse(200, { ...savedGradeOutput, isAlreadyGraded: false }),
    });
    renderApp(`${QUESTION_PATH}/grade/${idOf('Ben')}`);
    const group = await screen.findByRole('group', { name: 'Answer group' });
    expect(within(group).getByText('Group of 300 alike answers')).toBeInTheDocument();
    expect(
      within(group).getByText(
        'Alike to Ann, Dan and 297 more. Once saved, this grade can be applied to the ones without a grade.',
      ),
    ).toBeInTheDocument();
  });

  it('draws the comments only with the group notice above them, not before it (no shift down, decision 0091)', async () => {
    const groups = deferredResponse();
    stubNetwork({
      ...questionPageRoutes(() => jsonResponse(200, groupsOutput())),
      [`GET ${QUESTION_API}/answer-groups/of/${idOf('Ann')}`]: groups.responder,
      [`POST ${GRADE_API}`]: () => jsonResponse(200, savedGradeOutput),
    });
    renderApp(`${QUESTION_PATH}/grade/${idOf('Ann')}?queue=1`);

    // Everything else has answered; the screen keeps its frame while the groups' read is on its way.
    await screen.findByRole('status', { name: 'Loading grading data…' });
    await waitFor(() => expect(screen.getByRole('dialog')).toHaveAttribute('aria-busy', 'true'));
    expect(screen.queryByRole('heading', { name: 'Review Comments' })).not.toBeInTheDocument();

    groups.respond(jsonResponse(200, groupOfOutput('Ann', groupsOutput())));
    const heading = await screen.findByRole('heading', { name: 'Review Comments' });
    const group = screen.getByRole('group', { name: 'Answer group' });
    expect(group.compareDocumentPosition(heading) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
  });

  it('says where an applied grade came from, and shows nothing for an answer in no group', async () => {
    const applied = groupsOutput();
    applied.groups[0]!.members[1] = member('Ben', {
      status: 'graded',
      grade: 9,
      appliedFromSubmissionId: idOf('Ann'),
    });
    stubNetwork({
      ...questionPageRoutes(() => jsonResponse(200, applied)),
      ...groupOfRoutes(applied),
      [`POST ${QUESTION_API}/grade/${idOf('Ben')}`]: () => jsonResponse(200, savedGradeOutput),
      [`POST ${QUESTION_API}/grade/${idOf('Eve')}`]: () => jsonResponse(200, savedGradeOutput),
    });
    const { router } = renderApp(`${QUESTION_PATH}/grade/${idOf('Ben')}`);
    const group = await screen.findByRole('group', { name: 'Answer group' });
    expect(
      within(group).getByText(
        "This grade was applied from Ann's with Apply to group. Review and change it like any grade.",
      ),
    ).toBeInTheDocument();

    await router.navigate(`${QUESTION_PATH}/grade/${idOf('Eve')}`);
    await screen.findByText('Final Grade: 9 / 10');
    await waitFor(() => expect(screen.queryByRole('group', { name: 'Answer group' })).not.toBeInTheDocument());
  });
});

describe('the review queue after a save', () => {
  it('moves to the lowest-confidence answer still ungraded in the order the server gives after the save', async () => {
    const ungradedOutput = {
      submissionText: 'F = 6 N',
      gradingResult: { comments: [], totalScore: 10 },
      questionPoints: 10,
      confidenceLevel: 40,
      grader: { kind: 'builtin', provider: 'builtin', model: 'builtin-v1' },
      hiddenText: [],
      gradingRunId: 'run-eve',
      isAlreadyGraded: false,
      currentGradeId: null,
    };
    // Before the save: Eve is to grade first; then Ben (85%) before Dan (17%) in the old order.
    let queue: object = {
      ...queueOutput,
      items: [
        queueItem('Ann', { status: 'graded', grade: 9 }),
        queueItem('Eve', { isGradeFirst: true, represents: 1, confidenceLevel: 40 }),
        queueItem('Ben', { confidenceLevel: 85 }),
        queueItem('Dan', { confidenceLevel: 17 }),
      ],
    };
    stubNetwork({
      ...questionPageRoutes(() => jsonResponse(200, groupsOutput())),
      [`GET ${QUESTION_API}/review-queue`]: () => jsonResponse(200, queue),
      [`POST ${QUESTION_API}/grade/${idOf('Eve')}`]: () => jsonResponse(200, ungradedOutput),
      [`POST ${QUESTION_API}/grade/${idOf('Dan')}`]: () =>
        jsonResponse(200, { ...ungradedOutput, gradingRunId: 'run-dan' }),
      [`POST ${QUESTION_API}/save-grade/${idOf('Eve')}`]: () => {
        // The save ends "grade these first": the server orders by confidence alone now.
        queue = {
          ...queueOutput,
          gradeFirst: { target: 2, ownGrades: 2, isActive: false },
          remaining: 2,
          items: [
            queueItem('Dan', { confidenceLevel: 17 }),
            queueItem('Eve', { status: 'graded', grade: 10, confidenceLevel: 40 }),
            queueItem('Ben', { confidenceLevel: 85 }),
            queueItem('Ann', { status: 'graded', grade: 9 }),
          ],
        };
        return jsonResponse(200, {
          message: 'Grade saved successfully!',
          grade: {
            _id: 'grade-eve',
            id: 'grade-eve',
            submissionId: idOf('Eve'),
            grade: 10,
            feedback: '',
            comments: [],
            confidenceLevel: 40,
            gradingRunId: 'run-eve',
            savedBy: { _id: INSTRUCTOR._id, name: INSTRUCTOR.name },
            createdAt: '2030-02-02T10:00:00.000Z',
          },
        });
      },
    });
    const { router } = renderApp(`${QUESTION_PATH}/grade/${idOf('Eve')}?queue=1`);
    const user = userEvent.setup({ delay: null });

    await screen.findByText('Final Grade: 10 / 10', undefined, { timeout: 15_000 });
    await user.click(screen.getByRole('button', { name: 'Save Grade' }));
    // Not Ben, who followed Eve in the order read before the save.
    await waitFor(() => expect(router.state.location.pathname).toBe(`${QUESTION_PATH}/grade/${idOf('Dan')}`));
  });
});
