// Helper of bench/question-page.ts (names starting with `_` are not run by `npm run bench`).
//
// Opens the real runtime (PGlite in DATA_DIR, the job workers in-process, the built-in grader),
// builds the real HTTP app, seeds a class of STUDENTS students through it (answers of a few
// paragraphs, read by the extraction jobs, AI suggestions from Grade All, a third saved as grades
// with a comment), waits until no job is left, listens, and prints one line `READY {json}` with
// what the benchmark needs. Runs until SIGTERM. BENCH_SERVE_WEB=1 also serves the built web app
// (apps/web/dist), for the browser benchmark of the grading screen (bench/grading-next.ts).
//
// Seeding goes through the product's own routes (register, course, add-students, question,
// upload-submission, save-grade), except the student accounts: 300 argon2 hashes would take
// minutes on a busy machine, so their rows are inserted with one hash computed once (nobody logs
// in as them; the instructor uploads their answers).
import { randomUUID } from 'node:crypto';
import { hashPassword } from '../apps/server/src/auth/passwords.ts';
import { openRuntime } from '../apps/server/src/boot.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { analyzeStaleTables } from '../apps/server/src/db/planner-statistics.ts';
import { buildApp } from '../apps/server/src/http/app.ts';
import { JOB_DEFINITIONS } from '../apps/server/src/job-registry.ts';
import { insertUser } from '../apps/server/src/models/users.ts';
import { buildTextPdf } from '../apps/server/src/demo/pdf-documents.ts';

const STUDENTS = Number(process.env.BENCH_STUDENTS ?? 300);

const config = loadConfig();
const runtime = await openRuntime(config, { jobs: 'workers' });
// BENCH_WEB_DIST=DIR serves that build instead of apps/web/dist (an A/B of two builds on one seeded class).
const app = await buildApp(runtime.ctx, {
  serveWebApp: process.env.BENCH_SERVE_WEB === '1',
  ...(process.env.BENCH_WEB_DIST ? { webDistDir: process.env.BENCH_WEB_DIST } : {}),
});
await app.ready();

async function call<T = any>(method: string, url: string, token: string | undefined, body?: unknown): Promise<T> {
  const isForm = body instanceof FormData;
  const request = new Request(`http://bench${url}`, {
    method,
    headers: {
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(body === undefined || isForm ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
  });
  const response = await app.inject({
    method: method as 'GET',
    url,
    headers: Object.fromEntries(request.headers),
    payload: body === undefined ? undefined : Buffer.from(await request.arrayBuffer()),
  });
  if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
  return response.json() as T;
}

function form(fields: Record<string, string | { bytes: Uint8Array; name: string }>): FormData {
  const data = new FormData();
  for (const [key, value] of Object.entries(fields)) {
    if (typeof value === 'string') data.append(key, value);
    else data.append(key, new Blob([value.bytes], { type: 'application/pdf' }), value.name);
  }
  return data;
}

const stamp = Date.now();
const instructor = { email: `instructor-${stamp}@bench.example`, password: 'bench-password-123' };
// Registration answers no token (decision 0069): the instructor signs in next, as a person does.
await call('POST', '/api/auth/register', undefined, { name: 'Bench Instructor', role: 'instructor', ...instructor });
const { token } = await call<{ token: string }>('POST', '/api/auth/login', undefined, instructor);
const { course } = await call('POST', '/api/courses', token, form({ title: 'Big class' }));

const passwordHash = await hashPassword('not-used-for-login-123');
const emails: string[] = [];
for (let index = 0; index < STUDENTS; index += 1) {
  const email = `student-${String(index).padStart(3, '0')}-${stamp}@bench.example`;
  emails.push(email);
  await insertUser(runtime.ctx.db, {
    id: randomUUID(),
    name: `Student ${String(index).padStart(3, '0')} Benchmark`,
    email,
    passwordHash,
    role: 'student',
  });
}
await call('POST', `/api/courses/${course._id}/add-students`, token, { emails });

const { assignment } = await call('POST', '/api/assignments', token, {
  title: 'Homework 1',
  courseId: course._id,
  deadline: null,
});
const questionPdf = await buildTextPdf({ paragraphs: ['Explain osmosis in two sentences.'] });
const { question } = await call(
  'POST',
  `/api/assignments/${assignment._id}/questions`,
  token,
  form({ title: 'Osmosis', points: '10', questionFile: { bytes: questionPdf, name: 'question.pdf' } }),
);
const questionUrl = `/api/assignments/${assignment._id}/questions/${question._id}`;
await call('PATCH', `${questionUrl}/save-rubric`, token, {
  questionText: 'Explain osmosis in two sentences.',
  solutionText: 'Water moves across a semi-permeable membrane towards the higher solute concentration.',
  items: [
    { criterion: 'Names the membrane', points: 4 },
    { criterion: 'Direction of the flow', points: 6 },
  ],
});

// About 600 characters of text per answer, as a short written answer has.
const answerPdf = await buildTextPdf({
  paragraphs: [
    'Osmosis is the movement of water molecules across a semi-permeable membrane, from the side where the solution is more dilute to the side where it is more concentrated.',
    'The membrane lets the small water molecules through but not the dissolved particles, so water keeps moving until the concentrations are closer on both sides.',
    'For example, a slice of potato left in salty water loses water and becomes soft, while one left in pure water takes water in and stays firm.',
  ],
});
const submissionIds: string[] = [];
for (const [index, studentEmail] of emails.entries()) {
  const { submission } = await call(
    'POST',
    `${questionUrl}/upload-submission`,
    token,
    form({ studentEmail, file: { bytes: answerPdf, name: `answer-${index}.pdf` } }),
  );
  submissionIds.push(submission._id);
}
// AI suggestions for every answer (the built-in grader), then a third of the class graded.
await call('POST', `${questionUrl}/grade-all`, token);
await waitFor(async () => (await call('GET', `${questionUrl}/grade-all/progress`, token)).isFinished);
// Saved all at once, so the re-suggestions they cause share one or two refreshes. (Graded one by
// one, each save re-suggests the pending answers: a class of 300 then carries about 25,000 runs,
// which this seeding leaves out to finish in minutes; see bench/README.md.)
await Promise.all(
  submissionIds
    .filter((_, index) => index % 3 === 0)
    .map((submissionId) =>
      call('POST', `${questionUrl}/save-grade/${submissionId}`, token, {
        grade: 7,
        feedback: 'Good, but say which way the water goes.',
        comments: [{ text: 'Direction missing', pointsDeducted: 3, accepted: true }],
        // A first save: no grade before it (decision 0069: a save names the grade it starts from).
        expectedGradeId: null,
      }),
    ),
);
// Settled: every file read and no run queued or running (the refresh after the saves included).
await waitFor(async () => {
  const page = await call('GET', `${questionUrl}?includeSubmissions=1`, token);
  return page.submissions.every(
    (row: { extractionStatus?: string; gradingStatus: string }) =>
      row.extractionStatus === 'done' && row.gradingStatus !== 'queued' && row.gradingStatus !== 'running',
  );
});
await waitFor(async () => {
  const open = await Promise.all(JOB_DEFINITIONS.map((job) => runtime.ctx.jobs!.countOpenJobs(job.name)));
  return open.every((count) => count === 0);
});

// What the runtime's ANALYZE timer (db/planner-statistics.ts, every minute on PGlite) does after
// a seeding like this one: done here so the figure does not depend on whether the timer fired yet.
await analyzeStaleTables(runtime.ctx.database);

// BENCH_CPU_PROFILE=file.cpuprofile: a V8 profile of the requests only (seeding left out), written at SIGTERM.
const profile = process.env.BENCH_CPU_PROFILE ? await startProfile() : undefined;
const address = await app.listen({ host: '127.0.0.1', port: 0 });
console.log(`READY ${JSON.stringify({ url: `${address}${questionUrl}?includeSubmissions=1`, token })}`);

process.once('SIGTERM', () => {
  void (profile?.() ?? Promise.resolve())
    .then(() => app.close())
    .then(() => runtime.shutdown())
    .finally(() => process.exit(0));
});

async function waitFor(isDone: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 600; attempt += 1) {
    if (await isDone()) return;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error('seeding did not settle within 10 minutes');
}

async function startProfile(): Promise<() => Promise<void>> {
  const { Session } = await import('node:inspector/promises');
  const { writeFile } = await import('node:fs/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    await writeFile(process.env.BENCH_CPU_PROFILE!, JSON.stringify(profile));
  };
}
