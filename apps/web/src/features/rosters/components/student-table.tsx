import { Paper, Table, TableBody, TableCell, TableContainer, TableHead, TableRow } from '@mui/material';
import type { Person, PersonRef } from '@gradewise/shared/contracts/courses';
import { EmptyMessage } from '../../../components/screen-states.tsx';

export const NO_STUDENTS_MESSAGE = 'No students yet';

/**
 * The course roster (spec section 2). The owning instructor gets Name and Email; a student gets
 * classmates' names only (the server sends them no emails).
 */
export function StudentTable({ students }: { students: Person[] | PersonRef[] }) {
  if (students.length === 0) return <EmptyMessage text={NO_STUDENTS_MESSAGE} />;
  const rows: Array<PersonRef & { email?: string }> = students;
  const showsEmails = rows.some((student) => student.email !== undefined);
  return (
    <TableContainer component={Paper} variant="outlined">
      <Table aria-label="Students" size="small">
        <TableHead>
          <TableRow>
            <TableCell>Name</TableCell>
            {showsEmails ? <TableCell>Email</TableCell> : null}
          </TableRow>
        </TableHead>
        <TableBody>
          {rows.map((student) => (
            <TableRow key={student._id}>
              <TableCell component="th" scope="row" sx={{ overflowWrap: 'anywhere' }}>
                {student.name}
              </TableCell>
              {showsEmails ? <TableCell sx={{ overflowWrap: 'anywhere' }}>{student.email}</TableCell> : null}
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableContainer>
  );
}
