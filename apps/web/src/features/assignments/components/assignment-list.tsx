import { Link as RouterLink } from 'react-router-dom';
import { Box, Button, Link, Paper, Stack, Typography } from '@mui/material';
import type { AssignmentSummary } from '@gradewise/shared/contracts/assignments';
import { formatDateTime } from '../../../lib/format-date.ts';
import { assignmentPath } from '../../../lib/paths.ts';

export interface AssignmentListProps {
  assignments: AssignmentSummary[];
  /** The assignments page lists several courses' assignments; a course page does not repeat its own title. */
  showCourse?: boolean;
  /**
   * 'title-link': the title links to the assignment (assignments page);
   * 'view-button': a View Assignment button does (course page).
   */
  linkStyle?: 'title-link' | 'view-button';
  /** Heading level of each assignment's title, under the page's own headings. */
  headingLevel?: 'h2' | 'h3';
}

/** Assignments with their total points (the sum of their questions' points) and deadline. */
export function AssignmentList({
  assignments,
  showCourse = false,
  linkStyle = 'title-link',
  headingLevel = 'h2',
}: AssignmentListProps) {
  return (
    <Stack component="ul" spacing={1.5} sx={{ listStyle: 'none', p: 0, m: 0 }}>
      {assignments.map((assignment) => (
        <Paper
          key={assignment._id}
          component="li"
          variant="outlined"
          sx={{
            p: 2,
            display: 'flex',
            flexDirection: { xs: 'column', sm: 'row' },
            gap: 1.5,
            alignItems: { xs: 'stretch', sm: 'center' },
          }}
        >
          <Box sx={{ flex: 1, minWidth: 0 }}>
            <Typography variant="h6" component={headingLevel} sx={{ overflowWrap: 'anywhere' }}>
              {linkStyle === 'title-link' ? (
                <Link component={RouterLink} to={assignmentPath(assignment._id)} underline="hover">
                  {assignment.title}
                </Link>
              ) : (
                assignment.title
              )}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {[
                `Total points: ${assignment.points}`,
                assignment.deadline ? `Deadline: ${formatDateTime(assignment.deadline)}` : null,
                showCourse ? `Course: ${assignment.course.title}` : null,
              ]
                .filter(Boolean)
                .join(' · ')}
            </Typography>
          </Box>
          {linkStyle === 'view-button' ? (
            <Button
              component={RouterLink}
              to={assignmentPath(assignment._id)}
              variant="outlined"
              aria-label={`View Assignment: ${assignment.title}`}
              sx={{ flexShrink: 0 }}
            >
              View Assignment
            </Button>
          ) : null}
        </Paper>
      ))}
    </Stack>
  );
}
