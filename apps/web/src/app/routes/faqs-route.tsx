import { useId } from 'react';
import { Accordion, AccordionDetails, AccordionSummary, Container, Typography } from '@mui/material';
import ExpandMoreIcon from '@mui/icons-material/ExpandMore';
import { useDocumentTitle } from '../../lib/use-document-title.ts';

const FAQS = [
  {
    question: 'Is my data private and secure?',
    answer:
      "Gradewise runs on your school's own server, and your courses, PDFs and grades stay there. If your school configures an external AI provider, the text needed for grading is sent to that provider, under its terms; otherwise nothing leaves the server. Gradewise does not use your data to train AI models.",
  },
  {
    question: 'How long does it take to learn?',
    answer:
      'It is designed to be learned in about a minute: create a course, upload a question, generate a rubric, and review the suggested grading. The How It Works page walks through each step.',
  },
  {
    question: 'How much will I save?',
    answer:
      'In money: Gradewise is free to use, with full access, so your first month is free and so is every month after it. In time: our goal is to save about 60% of your grading time, because you review drafted comments instead of writing each one.',
  },
  {
    question: 'How accurate is the AI grading, and can I edit the rubric?',
    answer:
      'Every suggestion shows a confidence level and says which grader produced it, so you know what to check closely. Rubrics, comments and point deductions all remain editable, and nothing becomes a grade until you save it.',
  },
  {
    question: 'Is there a mobile app?',
    answer: 'Not yet. Gradewise works in the web browser, including on phones and tablets.',
  },
];

export function FaqsRoute() {
  useDocumentTitle('FAQs');
  const baseId = useId();
  return (
    <Container maxWidth="md" sx={{ py: { xs: 4, md: 8 } }}>
      <Typography variant="h3" component="h1" gutterBottom sx={{ fontSize: { xs: '2.2rem', md: '3rem' } }}>
        Frequently Asked Questions
      </Typography>
      {FAQS.map((faq, index) => (
        // The summary's heading is the h2 under the page's h1 (MUI's default h3 skipped a level, axe).
        <Accordion key={faq.question} disableGutters slotProps={{ heading: { component: 'h2' } }}>
          <AccordionSummary
            expandIcon={<ExpandMoreIcon />}
            id={`${baseId}-question-${index}`}
            aria-controls={`${baseId}-answer-${index}`}
          >
            <Typography component="span" variant="subtitle1" sx={{ fontWeight: 500 }}>
              {faq.question}
            </Typography>
          </AccordionSummary>
          <AccordionDetails id={`${baseId}-answer-${index}`}>
            <Typography color="text.secondary">{faq.answer}</Typography>
          </AccordionDetails>
        </Accordion>
      ))}
    </Container>
  );
}
