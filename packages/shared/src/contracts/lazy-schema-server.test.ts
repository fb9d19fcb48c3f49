import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CourseDetail } from './courses.ts';
import { lazySchema } from './lazy-schema.ts';
import { QuestionPageForStaff } from './questions.ts';

describe('a contract on the server (decision 0130)', () => {
  it('is the schema itself, built as its module loads', () => {
    const schema = z.object({ note: z.string().optional() });
    expect(lazySchema(() => schema)).toBe(schema);
  });

  it('compiles to JSON Schema through every member, as the response serializers do', () => {
    // Optional members of objects inside an optional array: the walk a stand-in broke.
    const page = z.toJSONSchema(QuestionPageForStaff, { io: 'output', unrepresentable: 'any', target: 'draft-7' });
    expect(page.properties?.submissions).toMatchObject({ type: 'array', items: { type: 'object' } });
    const course = z.toJSONSchema(CourseDetail, { io: 'output', unrepresentable: 'any', target: 'draft-7' });
    expect(course.anyOf ?? course.oneOf).toHaveLength(2);
  });
});
