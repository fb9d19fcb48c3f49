import type { ReactNode } from 'react';
import { Box } from '@mui/material';
import type { CourseDetail } from '@gradewise/shared/contracts/courses';
import { PageHeader } from '../../../components/page-header.tsx';

/** Spec section 9: the course image on its page is at most 300 px high. */
export const COURSE_DETAIL_IMAGE_MAX_HEIGHT = 300;

/** The top of a course page: title, instructor, image and the page's action buttons. */
export function CourseOverview({ course, actions }: { course: CourseDetail; actions?: ReactNode }) {
  return (
    <>
      <PageHeader
        back={{ to: '/courses', label: 'Courses' }}
        title={course.title}
        subtitle={`Instructor: ${course.instructor.name}`}
        actions={actions}
      />
      {course.image ? (
        <Box
          component="img"
          src={course.image}
          alt=""
          sx={{
            display: 'block',
            width: '100%',
            maxHeight: COURSE_DETAIL_IMAGE_MAX_HEIGHT,
            objectFit: 'cover',
            borderRadius: 1,
            mb: 3,
          }}
        />
      ) : null}
    </>
  );
}

/** The line under a course's students heading. */
export function rosterSummary(course: CourseDetail): string {
  const count = course.students.length;
  const students = `${count} ${count === 1 ? 'student' : 'students'}`;
  if (course.viewer !== 'staff' || course.pendingStudents.length === 0) return students;
  return `${students}, ${course.pendingStudents.length} invited`;
}
