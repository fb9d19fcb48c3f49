import { Box } from '@mui/material';
import type { CourseSummary } from '@gradewise/shared/contracts/courses';
import { CourseCard } from './course-card.tsx';

/**
 * One column on a phone, two from `sm`, three from `md`, 24 px apart. A CSS grid rather than MUI's
 * Grid, which would add 2 KB gzip to the first page of /courses (decision 0039).
 */
export const COURSE_GRID_SX = {
  listStyle: 'none',
  p: 0,
  m: 0,
  display: 'grid',
  gap: 3,
  gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', md: 'repeat(3, minmax(0, 1fr))' },
} as const;

export function CourseGrid({ courses }: { courses: CourseSummary[] }) {
  return (
    <Box component="ul" sx={COURSE_GRID_SX}>
      {courses.map((course) => (
        <Box component="li" key={course._id}>
          <CourseCard course={course} />
        </Box>
      ))}
    </Box>
  );
}
