import type { AppContext } from '../context.ts';
import { newId } from '../lib/ids.ts';
import { insertCourse, type CourseRow } from '../models/courses.ts';
import type { UserRow } from '../models/users.ts';
import { checkImage, checkPdf, type CheckedFile, type UploadedFile } from '../storage/file-content.ts';
import { storeFilesThen } from './store-files.ts';

export interface CreateCourseRequest {
  title: string;
  image?: UploadedFile;
  syllabus?: UploadedFile;
}

/** Creates a course owned by the calling instructor, with its optional image and syllabus. */
export async function createCourse(
  ctx: AppContext,
  instructor: UserRow,
  request: CreateCourseRequest,
): Promise<CourseRow> {
  // Every file is checked before anything is stored, so a bad syllabus never leaves an image behind.
  const image = request.image
    ? await checkImage('course-image', request.image.bytes, request.image.filename)
    : undefined;
  const syllabus = request.syllabus
    ? await checkPdf('syllabus', request.syllabus.bytes, request.syllabus.filename)
    : undefined;
  const uploads = [image, syllabus].filter((file): file is CheckedFile => file !== undefined);
  return storeFilesThen(ctx, uploads, instructor.id, async (tx, stored) =>
    insertCourse(tx, {
      id: newId(),
      title: request.title,
      instructorId: instructor.id,
      imageFileId: stored.find((file) => file.kind === 'course-image')?.id ?? null,
      syllabusFileId: stored.find((file) => file.kind === 'syllabus')?.id ?? null,
    }),
  );
}
