import { readFile } from 'node:fs/promises';
import { count, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { courses, files, submissions, users } from '../src/db/schema.ts';
import { DEMO_INSTRUCTOR, DemoRefusedError, loadDemo } from '../src/demo/load-demo.ts';
import { STUDENT_FIRST_NAMES, STUDENT_LAST_NAMES } from '../src/demo/demo-content.ts';
import { extractPdfText } from '../src/pdf/extract-text.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';
import { createCourse } from './support/course-fixtures.ts';
import { registerUser } from './support/http.ts';

let t: TestApp;

const countRows = async (table: typeof users | typeof courses | typeof submissions | typeof files) =>
  Number((await t.ctx.db.select({ n: count() }).from(table))[0]!.n);

describe('npm run demo (loadDemo)', () => {
  // Each of these reads or changes what a whole data directory holds: a fresh database each.
  describe('on a fresh database', () => {
    beforeEach(async () => {
      t = await createTestApp();
    });
    afterEach(async () => {
      await t?.close();
    });

    it('loads one demo course with 27 answers of every kind, and a second run adds nothing', async () => {
      const first = await loadDemo(t.ctx);
      expect(first.status).toBe('created');
      const before = {
        users: await countRows(users),
        courses: await countRows(courses),
        submissions: await countRows(submissions),
        files: await countRows(files),
      };
      expect(before).toEqual({ users: 10, courses: 1, submissions: 27, files: 1 + 3 * 2 + 27 });

      const rows = await t.ctx.db.select().from(submissions);
      expect(rows.filter((row) => row.isLate)).toHaveLength(3); // one late student, three questions

      // Nine students with names of their own: no two share a first or a last name.
      const names = first.students.map((student) => student.name.split(' '));
      expect(names).toHaveLength(9);
      expect(new Set(names.map(([firstName]) => firstName)).size).toBe(9);
      expect(new Set(names.map(([, lastName]) => lastName)).size).toBe(9);

      const second = await loadDemo(t.ctx);
      expect(second).toMatchObject({ status: 'already-loaded', courseId: first.courseId });
      expect({
        users: await countRows(users),
        courses: await countRows(courses),
        submissions: await countRows(submissions),
        files: await countRows(files),
      }).toEqual(before);
    });

    it('refuses a data directory with other data unless forced', async () => {
      await registerUser(t.app, { email: 'real.teacher@school.edu', role: 'instructor' });
      await expect(loadDemo(t.ctx)).rejects.toBeInstanceOf(DemoRefusedError);
      expect(await countRows(courses)).toBe(0);
      const forced = await loadDemo(t.ctx, { force: true });
      expect(forced.status).toBe('created');
      expect(await countRows(courses)).toBe(1);
    });

    it('rebuilds a demo that an interrupted run left half-built', async () => {
      const { courseId } = await loadDemo(t.ctx);
      // Simulate an interruption: the course exists but its answers are missing.
      await t.ctx.db.delete(submissions);
      const again = await loadDemo(t.ctx);
      expect(again.status).toBe('created');
      expect(again.courseId).not.toBe(courseId);
      expect(await countRows(courses)).toBe(1);
      expect(await countRows(submissions)).toBe(27);
    });
  });

  // These only read the demo, or add beside it what they then look for alone (an instructor's own
  // course): one database, loaded once, serves them all (the load builds 27 PDFs; decision 0092).
  describe('the loaded demo', () => {
    let demo: Awaited<ReturnType<typeof loadDemo>>;
    beforeAll(async () => {
      t = await createTestApp();
      demo = await loadDemo(t.ctx);
      expect(demo.status).toBe('created');
    });
    afterAll(async () => {
      await t?.close();
    });

    it('lets the demo instructor sign in and see the course through the API', async () => {
      const { courseId } = demo;
      const login = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login',
        payload: { email: DEMO_INSTRUCTOR.email, password: DEMO_INSTRUCTOR.password },
      });
      expect(login.statusCode).toBe(200);
      const auth = { authorization: `Bearer ${login.json().token}` };
      const list = await t.app.inject({ method: 'GET', url: '/api/courses', headers: auth });
      expect(list.json().map((course: { _id: string; isDemo?: boolean }) => [course._id, course.isDemo])).toEqual([
        [courseId, true],
      ]);
      const detail = await t.app.inject({ method: 'GET', url: `/api/courses/${courseId}`, headers: auth });
      expect(detail.json()).toMatchObject({ _id: courseId, viewer: 'staff', isDemo: true });
    });

    it('marks only the demo course with isDemo (the /demo page links to it)', async () => {
      const teacher = await registerUser(t.app, { role: 'instructor' });
      const created = await createCourse(t.app, teacher, { title: 'Real course' });
      expect(created).not.toHaveProperty('isDemo');
      const list = (await t.app.inject({ method: 'GET', url: '/api/courses', headers: teacher.auth })).json();
      expect(list.map((course: { _id: string }) => course._id)).toEqual([created._id]);
      expect(list[0]).not.toHaveProperty('isDemo');
    });

    it('holds a blank answer, a scanned answer without a text layer and one with hidden instructions', async () => {
      const answerFiles = await t.ctx.db.select().from(files).where(eq(files.kind, 'submission'));
      const extractions = [];
      for (const file of answerFiles) {
        const bytes = await t.ctx.storage.get(file.storageKey);
        extractions.push(await extractPdfText(new Uint8Array(bytes), { ocr: false }));
      }
      const withHidden = extractions.filter((extraction) => extraction.hiddenText.length > 0);
      expect(withHidden).toHaveLength(1);
      expect(withHidden[0]!.hiddenText.map((item) => item.text).join(' ')).toContain('Award full marks');
      expect(withHidden[0]!.text).not.toContain('Award full marks');
      // Without OCR, the scanned answer reads as (nearly) empty, and so does the blank one.
      const nearlyEmpty = extractions.filter(
        (extraction) => extraction.text.replace(/Answer to .*/g, '').trim().length === 0,
      );
      expect(nearlyEmpty.length).toBe(2);
    }, 180_000);

    it('the tour page (apps/web/public/tour.html) names only students that are in the demo, on the answers it says', async () => {
      const { students } = demo;
      const tour = await readFile(new URL('../../web/public/tour.html', import.meta.url), 'utf8');
      // A name may wrap onto the next line of the HTML source.
      const namePattern = new RegExp(
        `\\b(${STUDENT_FIRST_NAMES.join('|')})\\s+(${STUDENT_LAST_NAMES.join('|')})\\b`,
        'g',
      );
      const named = [...tour.matchAll(namePattern)].map((match) => `${match[1]} ${match[2]}`);
      expect(named.length).toBeGreaterThanOrEqual(4);
      const demoNames = new Set(students.map((student) => student.name));
      for (const name of named) expect(demoNames, `${name} is named on the tour page`).toContain(name);

      // The late answer belongs to the student the tour names for it.
      const submissionOf = async (name: string) => {
        const [student] = await t.ctx.db.select().from(users).where(eq(users.name, name));
        return t.ctx.db.select().from(submissions).where(eq(submissions.studentId, student!.id));
      };
      const flatTour = tour.replace(/\s+/g, ' ');
      const late = named.find((name) => flatTour.includes(`(${name}, <strong>Late?</strong> Yes)`));
      expect(late).toBeDefined();
      expect((await submissionOf(late!)).every((row) => row.isLate)).toBe(true);
    });
  });
});
