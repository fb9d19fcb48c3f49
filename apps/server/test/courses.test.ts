import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CourseList } from '@gradewise/shared/contracts/courses';
import { expectJson } from './support/expect-json.ts';
import { count } from 'drizzle-orm';
import { courses, files } from '../src/db/schema.ts';
import { addStudents, createCourse, fetchFile } from './support/course-fixtures.ts';
import { makePdf, tinyPng } from './support/files.ts';
import { registerUser, type TestUser } from './support/http.ts';
import { multipart, pdfPart } from './support/multipart.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

let t: TestApp;
let instructor: TestUser;
beforeAll(async () => {
  t = await createTestApp();
  instructor = await registerUser(t.app, { role: 'instructor', name: 'Prof Ada' });
});
afterAll(async () => {
  await t?.close();
});

const rowCounts = async () => ({
  courses: (await t.ctx.db.select({ n: count() }).from(courses))[0]!.n,
  files: (await t.ctx.db.select({ n: count() }).from(files))[0]!.n,
});

async function postCourse(user: TestUser, parts: Parameters<typeof multipart>[0]) {
  const form = await multipart(parts);
  return t.app.inject({
    method: 'POST',
    url: '/api/courses',
    headers: { ...user.auth, ...form.headers },
    payload: form.payload,
  });
}

describe('POST /api/courses', () => {
  it('creates a course with an image and a syllabus, and answers signed links to both', async () => {
    const response = await postCourse(instructor, {
      title: '  Linear Algebra ',
      courseImage: { content: tinyPng(), filename: 'cover.png', contentType: 'image/png' },
      syllabusFile: pdfPart(await makePdf('Syllabus'), 'syllabus.pdf'),
    });
    expect(response.statusCode).toBe(201);
    const body = response.json();
    expect(body.message).toBe('Course created successfully.');
    expect(body.course).toMatchObject({
      _id: expect.any(String),
      title: 'Linear Algebra',
      viewer: 'staff',
      instructor: { _id: instructor.id, name: 'Prof Ada', email: instructor.email },
      students: [],
      pendingStudents: [],
    });
    expect(body.course.image).toMatch(/^\/api\/files\/[0-9a-f-]{36}\?exp=\d+&sig=[\w-]+$/);
    const image = await fetchFile(t.app, body.course.image);
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.rawPayload.equals(tinyPng())).toBe(true);
    const syllabus = await fetchFile(t.app, body.course.syllabus);
    expect(syllabus.headers['content-type']).toBe('application/pdf');
    expect(syllabus.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
  });

  it('creates a course with a title only; image and syllabus are null', async () => {
    const response = await postCourse(instructor, { title: 'Discrete Maths' });
    expect(response.statusCode).toBe(201);
    expect(response.json().course).toMatchObject({ title: 'Discrete Maths', image: null, syllabus: null });
  });

  it.each([
    [{}, 'Please provide a course title.'],
    [{ title: '   ' }, 'Please provide a course title.'],
    [{ title: 'x'.repeat(201) }, 'The course title must be at most 200 characters.'],
  ])('refuses %j with a 400 and stores nothing', async (parts, message) => {
    const before = await rowCounts();
    const response = await postCourse(instructor, parts);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ message, code: 'VALIDATION_FAILED' });
    expect(await rowCounts()).toEqual(before);
  });

  it('refuses a text file renamed .pdf as the syllabus, and stores neither it nor the image', async () => {
    const before = await rowCounts();
    const response = await postCourse(instructor, {
      title: 'Sneaky',
      courseImage: { content: tinyPng(), filename: 'cover.png' },
      syllabusFile: pdfPart(Buffer.from('just some text, not a PDF'), 'syllabus.pdf'),
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'The syllabus is not a valid PDF. Please choose a PDF file.',
      code: 'UNSUPPORTED_FILE',
    });
    expect(await rowCounts()).toEqual(before);
  });

  it('refuses an image that is not PNG, JPEG, WebP or GIF (an SVG), whatever its claimed type', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const response = await postCourse(instructor, {
      title: 'SVG',
      courseImage: { content: svg, filename: 'x.png', contentType: 'image/png' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toBe('The course image must be a PNG, JPEG, WebP or GIF image.');
  });

  it('refuses a JSON body (the form must be multipart)', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/courses',
      headers: instructor.auth,
      payload: { title: 'JSON' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'Please send this form as multipart/form-data.', code: 'BAD_REQUEST' });
  });

  it.each([
    ['no boundary', 'multipart/form-data', 'garbage'],
    ['a body that is not multipart', 'multipart/form-data; boundary=xyz', 'garbage'],
    [
      'a body cut off inside a part',
      'multipart/form-data; boundary=xyz',
      '--xyz\r\nContent-Disposition: form-data; name="title"\r\n\r\nabc',
    ],
  ])('answers a broken multipart body (%s) with a 400, not a 500', async (_label, contentType, payload) => {
    const before = await rowCounts();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/courses',
      headers: { ...instructor.auth, 'content-type': contentType },
      payload,
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({
      message: 'The upload is incomplete or is not valid multipart/form-data. Please try again.',
      code: 'BAD_REQUEST',
    });
    expect(await rowCounts()).toEqual(before);
  });

  it('refuses two files in one file field', async () => {
    const pdf = pdfPart(await makePdf('Syllabus'));
    const response = await postCourse(instructor, { title: 'Twice', syllabusFile: [pdf, pdf] });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ message: 'Please send only one file in "syllabusFile".', code: 'BAD_REQUEST' });
  });

  it('refuses students with a 403', async () => {
    const student = await registerUser(t.app);
    const response = await postCourse(student, { title: 'Mine' });
    expect(response.statusCode).toBe(403);
    expect(response.json().code).toBe('FORBIDDEN');
  });

  it('refuses an upload over the size limit with a 413 and stores nothing', async () => {
    const small = await createTestApp({ MAX_UPLOAD_MB: '1' });
    try {
      const owner = await registerUser(small.app, { role: 'instructor' });
      const form = await multipart({
        title: 'Big',
        syllabusFile: pdfPart(await makePdf('x'.repeat(10)), 'a.pdf'),
        courseImage: { content: Buffer.alloc(1024 * 1024 + 10, 0x89) },
      });
      const response = await small.app.inject({
        method: 'POST',
        url: '/api/courses',
        headers: { ...owner.auth, ...form.headers },
        payload: form.payload,
      });
      expect(response.statusCode).toBe(413);
      // The words, with the limit beside them.
      expect(response.json()).toEqual({
        message: 'The upload is too large. Each file may be at most 1 MB.',
        code: 'PAYLOAD_TOO_LARGE',
      });
      expect((await small.ctx.db.select({ n: count() }).from(courses))[0]!.n).toBe(0);
      expect((await small.ctx.db.select({ n: count() }).from(files))[0]!.n).toBe(0);
    } finally {
      await small.close();
    }
  });
});

describe('GET /api/courses', () => {
  it('lists the courses an instructor owns and the courses a student is enrolled in, nothing else', async () => {
    const owner = await registerUser(t.app, { role: 'instructor' });
    const otherInstructor = await registerUser(t.app, { role: 'instructor' });
    const student = await registerUser(t.app);
    const first = await createCourse(t.app, owner, { title: 'First' });
    const second = await createCourse(t.app, owner, { title: 'Second', courseImage: { content: tinyPng() } });
    await createCourse(t.app, otherInstructor, { title: 'Not yours' });
    await addStudents(t.app, owner, second._id, [student.email]);
    await addStudents(t.app, owner, first._id, [student.email]);

    const ownerResponse = await t.app.inject({ method: 'GET', url: '/api/courses', headers: owner.auth });
    const ownerList = expectJson(ownerResponse, 200, CourseList);
    // Nothing beyond the contract goes out.
    expect(ownerResponse.json()).toEqual(ownerList);
    expect(ownerList.map((course) => course.title)).toEqual(['Second', 'First']);
    expect(ownerList[0]).toEqual({
      _id: second._id,
      title: 'Second',
      image: expect.stringMatching(/^\/api\/files\//),
      instructor: { _id: owner.id, name: owner.name },
      // The list's time is the one the course was created with, to the millisecond, in UTC.
      createdAt: second.createdAt,
    });
    expect(ownerList[1]!._id).toBe(first._id);
    expect(ownerList[1]!.createdAt).toBe(first.createdAt);

    const studentResponse = await t.app.inject({ method: 'GET', url: '/api/courses', headers: student.auth });
    const studentList = expectJson(studentResponse, 200, CourseList);
    // Newest first, whatever the order of enrolment; each summary as the owner's list shows it.
    expect(studentList.map((course) => course._id)).toEqual([second._id, first._id]);
    expect(studentResponse.json()).toEqual(ownerResponse.json());
  });

  it('answers an empty list to a newcomer and 401 to anonymous callers', async () => {
    const newcomer = await registerUser(t.app);
    expect((await t.app.inject({ method: 'GET', url: '/api/courses', headers: newcomer.auth })).json()).toEqual([]);
    expect((await t.app.inject({ method: 'GET', url: '/api/courses' })).statusCode).toBe(401);
  });
});

describe('GET /api/courses/:id', () => {
  it('shows the owner the staff view and an enrolled student the student view', async () => {
    const owner = await registerUser(t.app, { role: 'instructor', name: 'Owner' });
    const zed = await registerUser(t.app, { name: 'Zed' });
    const amy = await registerUser(t.app, { name: 'Amy' });
    const course = await createCourse(t.app, owner, { syllabusFile: pdfPart(await makePdf('Syllabus')) });
    await addStudents(t.app, owner, course._id, [zed.email, amy.email, 'pending@example.edu']);

    const staff = (
      await t.app.inject({ method: 'GET', url: `/api/courses/${course._id}`, headers: owner.auth })
    ).json();
    expect(staff.viewer).toBe('staff');
    expect(staff.students).toEqual([
      { _id: amy.id, name: 'Amy', email: amy.email },
      { _id: zed.id, name: 'Zed', email: zed.email },
    ]);
    expect(staff.pendingStudents).toEqual([
      {
        email: 'pending@example.edu',
        invitedAt: expect.any(String),
        registeredName: null,
        registeredAsInstructor: false,
      },
    ]);
    expect(staff.instructor).toEqual({ _id: owner.id, name: 'Owner', email: owner.email });

    const seen = (await t.app.inject({ method: 'GET', url: `/api/courses/${course._id}`, headers: zed.auth })).json();
    expect(seen.viewer).toBe('student');
    expect(seen).not.toHaveProperty('pendingStudents');
    // A student sees classmates (and the instructor) by name only: no email anywhere in the answer.
    expect(seen.students).toEqual([
      { _id: amy.id, name: 'Amy' },
      { _id: zed.id, name: 'Zed' },
    ]);
    expect(seen.instructor).toEqual({ _id: owner.id, name: 'Owner' });
    const seenText = JSON.stringify(seen);
    for (const email of [amy.email, zed.email, owner.email, 'pending@example.edu'])
      expect(seenText).not.toContain(email);
    expect((await fetchFile(t.app, seen.syllabus)).statusCode).toBe(200);
  });

  it('answers 404 to anyone who is neither owner nor enrolled, and for unknown or non-UUID ids', async () => {
    const owner = await registerUser(t.app, { role: 'instructor' });
    const outsider = await registerUser(t.app);
    const otherInstructor = await registerUser(t.app, { role: 'instructor' });
    const course = await createCourse(t.app, owner);
    for (const user of [outsider, otherInstructor]) {
      const response = await t.app.inject({ method: 'GET', url: `/api/courses/${course._id}`, headers: user.auth });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ message: 'Course not found.', code: 'NOT_FOUND' });
    }
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000', "1' OR '1'='1"]) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/courses/${encodeURIComponent(id)}`,
        headers: owner.auth,
      });
      expect(response.statusCode).toBe(404);
    }
  });
});
