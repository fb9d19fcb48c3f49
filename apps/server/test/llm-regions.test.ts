import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTextPdf } from '../src/demo/pdf-documents.ts';
import { createCourseWorld, type CourseWorld } from './support/course-fixtures.ts';
import { FAKE_MODEL_ID, imageUrls, startFakeLlmServer, type FakeLlmServer } from './support/fake-llm-server.ts';
import { multipart, pdfPart } from './support/multipart.ts';
import { questionPath } from './support/review-fixtures.ts';
import { createTestApp, type TestApp } from './support/test-app.ts';

/**
 * Issue 13 item 12, the AI side: a model that reads page images is asked where each judgement is
 * on the page, and what it answers comes back as comment regions in the grading data — through the
 * real job queue, real HTTP to the fake OpenAI-compatible model, and real page rendering. A region
 * the model got wrong (a page the answer does not have) is dropped, and the grade still comes.
 */
let fake: FakeLlmServer;
let t: TestApp;
let world: CourseWorld;
let submissionId: string;
let itemIds: string[];

const base = () => questionPath(world.assignment._id, world.question._id);
const post = (url: string) => t.app.inject({ method: 'POST', url, headers: world.instructor.auth });

beforeAll(async () => {
  fake = await startFakeLlmServer();
  t = await createTestApp(
    {
      AI_PROVIDER: 'openai-compatible',
      AI_BASE_URL: fake.baseUrl,
      AI_MODEL: FAKE_MODEL_ID,
      AI_MAX_RETRIES: '0',
      AI_VISION: 'true',
    },
    { withJobs: true },
  );
  world = await createCourseWorld(t.app);
  const rubric = await post(`${base()}/generate-rubric`);
  expect(rubric.statusCode).toBe(200);
  itemIds = rubric.json().autoRubric[0].items.map((item: { id: string }) => item.id);
  expect(itemIds.length).toBeGreaterThanOrEqual(2);

  const content = Buffer.from(await buildTextPdf({ pages: [['Part (a): v = 12 m/s.'], ['Part (b): d = 36 m.']] }));
  const form = await multipart({ file: pdfPart(content) });
  const submitted = await t.app.inject({
    method: 'POST',
    url: `${base()}/submit`,
    headers: { ...world.student.auth, ...form.headers },
    payload: form.payload,
  });
  expect(submitted.statusCode).toBe(201);
  submissionId = submitted.json().submission._id;
});

afterAll(async () => {
  await t?.close();
  await fake?.close();
});

describe('regions from a model that reads page images', () => {
  it('come back on the suggested comments; one on a page the answer lacks is dropped', async () => {
    const box = { x: 0.1, y: 0.2, width: 0.6, height: 0.15 };
    fake.enqueue({
      kind: 'json',
      content: {
        items: itemIds.map((rubricItemId, index) => ({
          rubricItemId,
          pointsDeducted: 0,
          comment: `Judgement ${index + 1}.`,
          region: index === 0 ? { page: 2, ...box } : index === 1 ? { page: 7, ...box } : null,
        })),
        generalComment: '',
        confidence: 85,
      },
    });
    const response = await post(`${base()}/grade/${submissionId}`);
    expect(response.statusCode).toBe(200);

    // Both pages were sent as images, and the model was asked for regions on them.
    const request = fake.chatRequests().at(-1)!;
    expect(imageUrls(request)).toHaveLength(2);
    expect(request.body.response_format.json_schema.schema.properties!.items!.items!.required).toContain('region');

    const comments = response.json().gradingResult.comments as { text: string; region: unknown }[];
    const regionOf = (text: string) => comments.find((comment) => comment.text === text)?.region;
    expect(regionOf('Judgement 1.')).toEqual({ page: 2, ...box });
    expect(regionOf('Judgement 2.')).toBeNull();
    if (itemIds.length > 2) expect(regionOf('Judgement 3.')).toBeNull();
  });
});
