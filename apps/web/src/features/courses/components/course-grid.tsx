import { Grid } from '@mui/material';
import type { CourseSummary } from '@gradewise/shared/contracts/courses';
import { CourseCard } from './course-card.tsx';

export function CourseGrid({ courses }: { courses: CourseSummary[] }) {
  return (
    <Grid container spacing={3} component="ul" sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {courses.map((course) => (
        <Grid key={course._id} size={{ xs: 12, sm: 6, md: 4 }} component="li">
          <CourseCard course={course} />
        </Grid>
      ))}
    </Grid>
  );
}
