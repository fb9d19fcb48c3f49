import { describe, expect, it } from 'vitest';
import { QuestionDetail } from '@gradewise/shared/contracts/questions';
import { compileFastSerializer } from '../src/http/fast-serializer.ts';

const staffRow = {
  _id: 'submission-1',
  file: '/api/files/f1?sig=abc',
  isLate: false,
  version: 2,
  submittedAt: '2026-11-20T10:00:00.000Z',
  extractionStatus: 'done',
  extractionError: null,
  student: { _id: 'student-1', name: 'Ada "the" Lovelace', email: 'ada@example.edu' },
  versions: 2,
  uploadedBy: { _id: 'student-1', name: 'Ada "the" Lovelace' },
  grade: 7.5,
  isAlreadyGraded: true,
  isGradeOnEarlierVersion: true,
  gradedVersion: 1,
  isReopened: false,
  confidenceLevel: null,
  comments: [
    {
      _id: 'c1',
      id: 'c1',
      text: 'Direction missing\n<script>',
      pointsDeducted: 2.5,
      accepted: true,
      rubricItemId: null,
      rubricItem: null,
    },
  ],
  extractedText: 'Osmosis is…\u0007 water',
  grader: { kind: 'builtin', provider: 'builtin', model: 'grader-2.2.0' },
  gradingStatus: 'succeeded',
  reviewStatus: 'graded',
  suggestedScore: 8,
  hasHiddenText: false,
  hiddenText: [],
};

const staffPage = {
  _id: 'question-1',
  title: 'Osmosis',
  points: 10,
  createdAt: '2026-11-20T09:00:00.000Z',
  assignment: { _id: 'assignment-1', title: 'Homework 1' },
  course: { _id: 'course-1', title: 'Biology' },
  questionFile: '/api/files/q?sig=def',
  viewer: 'staff',
  solutionFile: null,
  autoRubric: [],
  submissions: [staffRow, { ...staffRow, _id: 'submission-2', grader: null, comments: [], grade: null }],
};

describe('fast serialiser of a response contract', () => {
  it('writes what the zod contract writes for the staff question page, branch chosen by viewer', () => {
    const contract = QuestionDetail.parse(staffPage);
    const serialize = compileFastSerializer(QuestionDetail);
    expect(JSON.parse(serialize(staffPage))).toEqual(contract);
  });

  it('leaves out fields the contract does not name, at every depth', () => {
    const serialize = compileFastSerializer(QuestionDetail);
    const leaky = {
      ...staffPage,
      passwordHash: 'secret',
      submissions: [{ ...staffRow, rawOutput: { secret: true }, student: { ...staffRow.student, role: 'x' } }],
    };
    const text = serialize(leaky);
    expect(text).not.toContain('secret');
    expect(text).not.toContain('"role"');
    expect(JSON.parse(text)).toEqual(QuestionDetail.parse(leaky));
  });

  it('serialises the student branch without the staff-only fields', () => {
    const studentPage = {
      ...staffPage,
      viewer: 'student',
      solutionFile: '/api/files/s?sig=1',
      submissions: [
        {
          _id: 'submission-1',
          file: '/api/files/f1?sig=abc',
          isLate: true,
          version: 1,
          submittedAt: '2026-11-20T10:00:00.000Z',
          student: { _id: 'student-1', name: 'Ada' },
          grade: null,
          isAlreadyGraded: false,
          canResubmit: true,
          gradeWithheld: false,
        },
      ],
    };
    const text = compileFastSerializer(QuestionDetail)(studentPage);
    expect(text).not.toContain('solutionFile');
    expect(JSON.parse(text)).toEqual(QuestionDetail.parse(studentPage));
  });

  it('fails on a missing required field or an unknown branch instead of sending half an answer', () => {
    const serialize = compileFastSerializer(QuestionDetail);
    const { title: _title, ...withoutTitle } = staffPage;
    expect(() => serialize(withoutTitle)).toThrow();
    expect(() => serialize({ ...staffPage, viewer: 'guest' })).toThrow(/no branch/);
  });
});
