import { Link as RouterLink } from 'react-router-dom';
import { Box, Button, Card, CardActions, CardContent, Typography } from '@mui/material';
import SchoolIcon from '@mui/icons-material/School';
import type { CourseSummary } from '@gradewise/shared/contracts/courses';

/** Spec section 9: course card image height 140 px. */
export const COURSE_CARD_IMAGE_HEIGHT = 140;

/** One course in the list: its image (or a plain band), title, instructor and View Course. */
export function CourseCard({ course }: { course: CourseSummary }) {
  return (
    <Card variant="outlined" component="article" sx={{ height: '100%', display: 'flex', flexDirection: 'column' }}>
      {course.image ? (
        // Decorative: the title right below names the course.
        <Box
          component="img"
          src={course.image}
          alt=""
          sx={{ display: 'block', width: '100%', height: COURSE_CARD_IMAGE_HEIGHT, objectFit: 'cover' }}
        />
      ) : (
        <Box
          aria-hidden
          sx={{
            height: COURSE_CARD_IMAGE_HEIGHT,
            display: 'flex',
            alignItems: 'center',
            justifyContent: 'center',
            bgcolor: 'action.hover',
          }}
        >
          <SchoolIcon sx={{ fontSize: 56, color: 'text.disabled' }} />
        </Box>
      )}
      <CardContent sx={{ flexGrow: 1 }}>
        <Typography variant="h6" component="h2" sx={{ overflowWrap: 'anywhere' }}>
          {course.title}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {course.instructor.name}
        </Typography>
      </CardContent>
      <CardActions sx={{ px: 2, pb: 2 }}>
        <Button
          component={RouterLink}
          to={`/courses/${encodeURIComponent(course._id)}`}
          variant="outlined"
          aria-label={`View Course: ${course.title}`}
        >
          View Course
        </Button>
      </CardActions>
    </Card>
  );
}
