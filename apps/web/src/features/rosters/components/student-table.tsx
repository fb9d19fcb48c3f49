import { Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow } from '@mui/material';
import type { Person } from '@gradewise/shared/contracts/courses';
import { EmptyMessage } from '../../../components/screen-states.tsx';

export const NO_STUDENTS_MESSAGE = 'No students yet';

/** The course roster: Name and Email (spec section 2). */
export function StudentTable({ students }: { students: Person[] }) {
  if (students.length === 0) return <EmptyMessage text={NO_STUDENTS_MESSAGE} />;
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table aria-label="Students" size="small">
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            <TableCell>Email</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {students.map((student) => (
            <TableRow key={student._id}>
              <TableCell component="th" scope="row" sx={{ overflowWrap: 'anywhere' }}>
                {student.name}
              </TableCell>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>{student.email}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
